import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useSession } from '../../auth/session';

/** Query keys of the student's data; notes and colleges both feed the deadlines. */
export const userDataKeys = {
  colleges: (uid: string) => ['user-colleges', uid] as const,
  checklist: (uid: string, college: string) => ['checklist', uid, college] as const,
  resources: (uid: string, college: string) => ['resources-demographics', uid, college] as const,
  notes: (uid: string) => ['notes', uid] as const,
  deadlines: (uid: string) => ['deadlines', uid] as const,
  calendarFeed: (uid: string) => ['calendar-feed', uid] as const,
};

/** The signed-in student's uid (the pages using these hooks are behind RequireAuth). */
export function useUid(): string {
  const { user } = useSession();
  return user?.uid ?? '';
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
 * Adds a removed college back (Undo): the server restores its checklist, kept for 30 days after removal.
 */
export function useRestoreCollege() {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (collegeName: string) => api.addUserCollege({ userId: uid, collegeName }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: userDataKeys.colleges(uid) });
      void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) });
    },
  });
}

/** Removes a college from the list (the server keeps its checklist 30 days for Undo). */
export function useRemoveCollege() {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (collegeName: string) => api.removeUserCollege({ userId: uid, collegeName }),
    onSuccess: (reply, collegeName) => {
      qc.setQueryData(userDataKeys.colleges(uid), reply.data);
      qc.removeQueries({ queryKey: userDataKeys.checklist(uid, collegeName) });
      void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) });
    },
  });
}

/** Resources and demographics of the selected college (one call serves both panels). */
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
