import type { AcademicProfile } from '@ct/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid } from '../../api/keys';

const key = (uid: string) => ['academic-profile', uid] as const;

/** The student's private academic profile (scores, GPA, budget, test-optional choices); all may be unset. */
export const academicProfileQuery = (uid: string) =>
  queryOptions({
    queryKey: key(uid),
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => (await api.getAcademicProfile({ userId: uid }, { signal })).data,
  });

export function useAcademicProfile() {
  const uid = useUid();
  return useQuery({ ...academicProfileQuery(uid), enabled: !!uid });
}

/** Saves the academic profile; every fit band re-renders with it at once. */
export function useSaveAcademicProfile() {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (p: Omit<AcademicProfile, 'updatedAt'>) =>
      (await api.updateAcademicProfile({ userId: uid, ...p })).data,
    onSuccess: (data) => qc.setQueryData(key(uid), data),
  });
}
