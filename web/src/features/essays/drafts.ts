import type { EssayDraft } from '@ct/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';

/** Each college on the student's list with its prompts, in list order. */
export const myPromptsQuery = (uid: string) =>
  queryOptions({
    queryKey: userDataKeys.myPrompts(uid),
    queryFn: async ({ signal }) => (await api.getMyEssayPrompts({ signal })).colleges,
  });

export function useMyPrompts() {
  const uid = useUid();
  return useQuery({ ...myPromptsQuery(uid), enabled: !!uid });
}

/** The student's drafts, one per prompt text. */
export const draftsQuery = (uid: string) =>
  queryOptions({
    queryKey: userDataKeys.drafts(uid),
    queryFn: async ({ signal }) => (await api.getEssayDrafts({ userId: uid }, { signal })).drafts,
  });

export function useDrafts() {
  const uid = useUid();
  return useQuery({ ...draftsQuery(uid), enabled: !!uid });
}

export async function fetchDrafts(uid: string): Promise<EssayDraft[]> {
  return (await api.getEssayDrafts({ userId: uid })).drafts;
}

export function useVersions(draftId: string | null, open: boolean) {
  const uid = useUid();
  return useQuery({
    queryKey: userDataKeys.draftVersions(uid, draftId ?? ''),
    enabled: !!uid && !!draftId && open,
    queryFn: async ({ signal }) =>
      (await api.getEssayDraftVersions({ userId: uid, draftId: draftId ?? '' }, { signal })).versions,
  });
}

/** Saves a draft; the cached list learns the new revision at once. */
export async function saveDraft(
  qc: QueryClient,
  uid: string,
  body: { prompt: string; body: string; baseRevision: number; keepVersion?: boolean },
): Promise<EssayDraft> {
  const saved = (await api.saveEssayDraft({ userId: uid, ...body })).data;
  qc.setQueryData<EssayDraft[]>(userDataKeys.drafts(uid), (old) =>
    old ? [...old.filter((d) => d.id !== saved.id), saved] : [saved],
  );
  void qc.invalidateQueries({ queryKey: userDataKeys.draftVersions(uid, saved.id) });
  return saved;
}
