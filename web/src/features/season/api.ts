import type { AidOffer, SeasonCollege } from '@ct/contracts';
import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';

/** Every college of the student's list at a glance (plan, status, next date, progress, aid offer). */
export const seasonQuery = (uid: string) =>
  queryOptions({
    queryKey: userDataKeys.season(uid),
    queryFn: async ({ signal }) => api.getSeason({ userId: uid }, { signal }),
  });

export function useSeason() {
  const uid = useUid();
  return useQuery({ ...seasonQuery(uid), enabled: !!uid });
}

/** Puts one changed college back into the overview, and refreshes the calendar its dates feed. */
function useChanged() {
  const uid = useUid();
  const qc = useQueryClient();
  return (changed: SeasonCollege) => {
    qc.setQueryData<Awaited<ReturnType<typeof api.getSeason>>>(userDataKeys.season(uid), (old) =>
      old
        ? {
            ...old,
            colleges: old.colleges.map((c) => (c.collegeId === changed.collegeId ? changed : c)),
          }
        : old,
    );
    void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) });
  };
}

export type ApplicationChange = Omit<Parameters<typeof api.updateApplication>[0], 'userId' | 'collegeName'>;

export function useUpdateApplication(collegeName: string) {
  const uid = useUid();
  const changed = useChanged();
  return useMutation({
    mutationFn: async (change: ApplicationChange) =>
      (await api.updateApplication({ userId: uid, collegeName, ...change })).data,
    onSuccess: changed,
  });
}

export function useSaveAidOffer(collegeName: string) {
  const uid = useUid();
  const changed = useChanged();
  return useMutation({
    mutationFn: async (offer: AidOffer) => (await api.saveAidOffer({ userId: uid, collegeName, offer })).data,
    onSuccess: changed,
  });
}

export function useRemoveAidOffer(collegeName: string) {
  const uid = useUid();
  const changed = useChanged();
  return useMutation({
    mutationFn: async () => (await api.removeAidOffer({ userId: uid, collegeName })).data,
    onSuccess: changed,
  });
}

/**
 * Resources and demographics of several colleges of the list, under the key the dashboard's panels use
 * (so the overview and the panels share what they read).
 */
export function useDemographicsOf(names: readonly string[]) {
  const uid = useUid();
  return useQueries({
    queries: names.map((collegeName) => ({
      queryKey: userDataKeys.resources(uid, collegeName),
      enabled: !!uid,
      staleTime: 5 * 60_000,
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        api.getCollegeResourcesDemographics({ userId: uid, collegeName }, { signal }),
    })),
  });
}

/** Whole college documents (with their sources), for the side-by-side of admitted colleges. */
export function useCollegeDocuments(names: readonly string[]) {
  return useQueries({
    queries: names.map((name) => ({
      queryKey: ['season-college-document', name] as const,
      staleTime: 10 * 60_000,
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (await api.searchCollege({ name }, { signal })).data,
    })),
  });
}
