import type { StudentProfile } from '@ct/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';

/** The official completion rates of students like the reader at every college on the list (issue 48). */
export function useListOutcomes() {
  const uid = useUid();
  return useQuery({
    queryKey: ['list-outcomes', uid] as const,
    staleTime: 5 * 60_000,
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getListOutcomes({ userId: uid }, { signal })).colleges,
  });
}

/**
 * Saves the student's own situation (Pell Grant expected, first in the family to attend college) with the
 * money profile they already have, which the update keeps as it is.
 */
export function useSaveSituation() {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (
      p: Pick<StudentProfile, 'homeState' | 'incomeBand' | 'pellEligible' | 'firstGeneration'>,
    ) =>
      (
        await api.updateStudentProfile({
          userId: uid,
          homeState: p.homeState,
          incomeBand: p.incomeBand,
          pellEligible: p.pellEligible ?? null,
          firstGeneration: p.firstGeneration ?? null,
        })
      ).data,
    onSuccess: (data) => qc.setQueryData(userDataKeys.profile(uid), data),
  });
}
