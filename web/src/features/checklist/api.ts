import type { Checklist } from '@ct/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';
import { markFresh } from '../../api/prefetch';
import { submitWrite } from '../../offline/outbox';
import { itemGuard } from './progress';

/** The key of a college's resolved deadlines, read with its checklist. */
const deadlinesKey = (uid: string, collegeName: string) =>
  [...userDataKeys.checklist(uid, collegeName), 'deadlines'] as const;

/**
 * The college's checklist. Its answer carries the college's resolved deadlines too: they are kept under
 * their own key from the same answer, so the checklist and its dates come in one request and are drawn
 * together (a date line arriving later would move the checklist under the student's thumb). For every
 * reader of the checklist: the panel, and the list's progress chart.
 */
export const checklistQuery = (qc: QueryClient, uid: string, collegeName: string) =>
  queryOptions({
    queryKey: userDataKeys.checklist(uid, collegeName),
    queryFn: async ({ signal }) => {
      const answer = await api.getCollegeChecklist({ userId: uid, collegeName }, { signal });
      markFresh(qc, deadlinesKey(uid, collegeName), answer.deadlines ?? []);
      return answer.checklist;
    },
  });

export function useChecklist(collegeName: string | null) {
  const uid = useUid();
  const qc = useQueryClient();
  return useQuery({ ...checklistQuery(qc, uid, collegeName ?? ''), enabled: !!uid && !!collegeName });
}

/**
 * The college's deadlines for the student's cycle, as the server resolves them: each plan's date, last
 * cycle's projected one year on and labelled so ("Expected January 1, 2027 (last cycle's date; ...)").
 * Read with the checklist (see `useChecklist`); asked for on their own only when that answer is old.
 */
export function useChecklistDeadlines(collegeName: string | null) {
  const uid = useUid();
  return useQuery({
    queryKey: deadlinesKey(uid, collegeName ?? ''),
    enabled: !!uid && !!collegeName,
    queryFn: async ({ signal }) =>
      (await api.getCollegeChecklist({ userId: uid, collegeName: collegeName ?? '' }, { signal }))
        .deadlines ?? [],
  });
}

export interface Toggle {
  section: string;
  itemIndex: number;
  completed: boolean;
}

/** Sets one item's tick in a checklist (a copy). */
function withTick(c: Checklist, t: Toggle): Checklist {
  const items = c[t.section];
  const item = items?.[t.itemIndex];
  if (!items || !item) return c;
  const next = items.slice();
  next[t.itemIndex] = { ...item, completed: t.completed };
  return { ...c, [t.section]: next };
}

/**
 * Ticks one item outside edit mode: shown at once, then sent with the item's text so the server refuses it if the item moved. On failure only that item
 * goes back (other ticks in flight are kept), and the checklist is read again.
 */
export function useToggleItem(collegeName: string, onFailure: () => void) {
  const uid = useUid();
  const qc = useQueryClient();
  const key = userDataKeys.checklist(uid, collegeName);
  const mutation = useMutation({
    networkMode: 'always',
    // Offline, the tick is kept on the device (and shown as waiting) and sent when the network is back.
    mutationFn: async (t: Toggle & { itemText: string }) =>
      submitWrite(
        uid,
        'updateChecklist',
        { userId: uid, collegeName, ...t },
        `${t.completed ? 'Ticking' : 'Unticking'} “${t.itemText}” (${collegeName})`,
      ),
    onError: (_err, t) => {
      qc.setQueryData<Checklist>(key, (c) => (c ? withTick(c, { ...t, completed: !t.completed }) : c));
      onFailure();
      void qc.invalidateQueries({ queryKey: key });
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) }),
  });
  /** Resolves once the server has answered (the tick is then kept or reverted). */
  return async (t: Toggle & { itemText: string }): Promise<void> => {
    // A read still in flight must not overwrite the tick with the old state.
    void qc.cancelQueries({ queryKey: key });
    qc.setQueryData<Checklist>(key, (c) => (c ? withTick(c, t) : c));
    await mutation.mutateAsync(t).catch(() => {});
  };
}

/** Save in edit mode: the whole checklist replaces the stored one. */
export function useSaveChecklist(collegeName: string) {
  const uid = useUid();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (checklist: Checklist) => api.updateChecklist({ userId: uid, collegeName, checklist }),
    onSuccess: (reply) => qc.setQueryData(userDataKeys.checklist(uid, collegeName), reply.checklist),
  });
}

export { itemGuard };
