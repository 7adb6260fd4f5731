import type { AidOffer, SeasonCollege } from '@ct/contracts';
import { STATUS_LABELS } from '@ct/contracts/season';
import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';
import { submitWrite } from '../../offline/outbox';

type Season = Awaited<ReturnType<typeof api.getSeason>>;

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
    qc.setQueryData<Season>(userDataKeys.season(uid), (old) =>
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

export type ApplicationChange = Omit<
  Parameters<typeof api.updateApplication>[0],
  'userId' | 'collegeName' | 'seen'
>;

/**
 * Saves a change of an application (plan, status, dates, portal). Sent with the changed fields as the
 * student saw them, so a change that waited on the device is refused, and the student told, when the
 * application was changed elsewhere meanwhile. Offline, the change is kept on the device (and shown at
 * once) and sent when the network is back.
 */
export function useUpdateApplication(college: SeasonCollege) {
  const uid = useUid();
  const qc = useQueryClient();
  const changed = useChanged();
  const { collegeName, application } = college;
  return useMutation({
    networkMode: 'always',
    mutationFn: async (change: ApplicationChange) => {
      const fields = Object.keys(change) as Array<keyof ApplicationChange>;
      const seen = Object.fromEntries(fields.map((f) => [f, application[f]]));
      const what = change.status ? ` (status: ${STATUS_LABELS[change.status]})` : '';
      const r = await submitWrite<{ data: SeasonCollege }>(
        uid,
        'updateApplication',
        { userId: uid, collegeName, ...change, seen },
        `Your change to the application to ${collegeName}${what}`,
      );
      if (r.queued)
        qc.setQueryData<Season>(userDataKeys.season(uid), (old) =>
          old
            ? {
                ...old,
                colleges: old.colleges.map((c) =>
                  c.collegeName === collegeName ? { ...c, application: { ...c.application, ...change } } : c,
                ),
              }
            : old,
        );
      return r;
    },
    onSuccess: (r) => {
      if (!r.queued) changed(r.reply.data);
    },
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

/**
 * Whole college documents (with their sources), for the side-by-side of admitted colleges: one read of
 * the colleges service for every name (it queues nothing), one answer per name in the order given.
 */
export function useCollegeDocuments(names: readonly string[]) {
  const joined = names.join('\n');
  const batch = useQuery({
    queryKey: ['season-college-documents', joined] as const,
    enabled: names.length > 0,
    staleTime: 10 * 60_000,
    queryFn: async ({ signal }) => (await api.getColleges({ names: joined }, { signal })).colleges,
  });
  const { data, isPending } = batch;
  // The same array while nothing changed, so the memoised overview is not drawn again for nothing.
  return useMemo(() => {
    const byName = new Map((data ?? []).map((c) => [c.name, c.college]));
    return (joined ? joined.split('\n') : []).map((name) => ({
      data: byName.get(name.trim()) ?? undefined,
      isPending,
    }));
  }, [data, isPending, joined]);
}
