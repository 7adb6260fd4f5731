import type { UserCollege } from '@ct/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useUid, userDataKeys } from './keys';

/**
 * What every change to the student's list of colleges refreshes (add from search, Undo, remove): the
 * list, the deadlines (a college's dates, and the aid dates once the list is not empty), the essay
 * workspace's prompts, and the college's own checklist, resources and recommenders. `colleges` is the
 * list as the server returned it, when it did.
 */
export function listChanged(qc: QueryClient, uid: string, collegeName: string, colleges?: UserCollege[]) {
  if (colleges) qc.setQueryData(userDataKeys.colleges(uid), colleges);
  else void qc.invalidateQueries({ queryKey: userDataKeys.colleges(uid) });
  for (const key of [
    userDataKeys.checklist(uid, collegeName),
    userDataKeys.resources(uid, collegeName),
    userDataKeys.recommenders(uid, collegeName),
  ]) {
    // Removed: nothing to show any more; added back: read again (a restored checklist keeps its ticks).
    qc.removeQueries({ queryKey: key });
  }
  void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) });
  void qc.invalidateQueries({ queryKey: userDataKeys.myPrompts(uid) });
  void qc.invalidateQueries({ queryKey: userDataKeys.season(uid) });
}

export function useUserColleges() {
  const uid = useUid();
  return useQuery({
    queryKey: userDataKeys.colleges(uid),
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getUserColleges({ userId: uid }, { signal })).colleges,
  });
}

/**
 * Adds a college to the list (Add to Profile, or Undo of a removal: the server restores a checklist kept
 * for 30 days after removal, and says so with `restored`).
 */
export function useAddCollege() {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (collegeName: string) => api.addUserCollege({ userId: uid, collegeName }),
    onSuccess: (_reply, collegeName) => listChanged(qc, uid, collegeName),
  });
}

/** Removes a college from the list (the server keeps its checklist 30 days for Undo). */
export function useRemoveCollege() {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (collegeName: string) => api.removeUserCollege({ userId: uid, collegeName }),
    onSuccess: (reply, collegeName) => listChanged(qc, uid, collegeName, reply.data),
  });
}

/** Resources and demographics of a college on the list (one call serves both panels and the costs). */
export function useResourcesDemographics(collegeName: string | null) {
  const uid = useUid();
  return useQuery({
    queryKey: userDataKeys.resources(uid, collegeName ?? ''),
    enabled: !!uid && !!collegeName,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) =>
      api.getCollegeResourcesDemographics({ userId: uid, collegeName: collegeName ?? '' }, { signal }),
  });
}
