import type { StudentProfile } from '@ct/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';

/** The student's private money profile (home state, income band); both may be unset. */
export const studentProfileQuery = (uid: string) =>
  queryOptions({
    queryKey: userDataKeys.profile(uid),
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => (await api.getStudentProfile({ userId: uid }, { signal })).data,
  });

export function useStudentProfile() {
  const uid = useUid();
  return useQuery({ ...studentProfileQuery(uid), enabled: !!uid });
}

/** Saves the profile; every screen showing money re-renders with it at once. */
export function useSaveStudentProfile() {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (p: Pick<StudentProfile, 'homeState' | 'incomeBand'>) =>
      (await api.updateStudentProfile({ userId: uid, ...p })).data,
    onSuccess: (data) => qc.setQueryData(userDataKeys.profile(uid), data),
  });
}
