import type { Recommender } from '@ct/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';

type Data = Awaited<ReturnType<typeof fetchRecommenders>>;

async function fetchRecommenders(uid: string, collegeName: string, signal?: AbortSignal) {
  return api.getRecommenders({ userId: uid, collegeName }, { signal });
}

/** The student's recommenders for a college, and the date to ask them by. */
export function useRecommenders(collegeName: string | null) {
  const uid = useUid();
  return useQuery({
    queryKey: userDataKeys.recommenders(uid, collegeName ?? ''),
    enabled: !!uid && !!collegeName,
    queryFn: ({ signal }) => fetchRecommenders(uid, collegeName ?? '', signal),
  });
}

export interface RecommenderChange {
  recommenderId: string;
  who: string;
  askedOn?: string | null;
  submittedOn?: string | null;
}

/** Adds or changes a recommender (the id is made here for a new one, so a retried save adds nothing). */
export function useSaveRecommender(collegeName: string) {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (change: RecommenderChange) =>
      (await api.saveRecommender({ userId: uid, collegeName, ...change })).data,
    onSuccess: (saved: Recommender) =>
      qc.setQueryData<Data>(userDataKeys.recommenders(uid, collegeName), (old) => {
        if (!old) return old;
        const has = old.recommenders.some((r) => r.id === saved.id);
        return {
          ...old,
          recommenders: has
            ? old.recommenders.map((r) => (r.id === saved.id ? saved : r))
            : [...old.recommenders, saved],
        };
      }),
  });
}

export function useRemoveRecommender(collegeName: string) {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (recommenderId: string) =>
      (await api.removeRecommender({ userId: uid, recommenderId })).data,
    onSuccess: (left) =>
      qc.setQueryData<Data>(userDataKeys.recommenders(uid, collegeName), (old) =>
        old ? { ...old, recommenders: left } : old,
      ),
  });
}
