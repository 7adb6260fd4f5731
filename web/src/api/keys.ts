import { useSession } from '../auth/session';

/**
 * Query keys of the signed-in student's data, in one place so that every change refreshes the same
 * queries (`listChanged` in `student.ts`). Notes and colleges both feed the deadlines.
 */
export const userDataKeys = {
  colleges: (uid: string) => ['user-colleges', uid] as const,
  checklist: (uid: string, college: string) => ['checklist', uid, college] as const,
  resources: (uid: string, college: string) => ['resources-demographics', uid, college] as const,
  recommenders: (uid: string, college: string) => ['recommenders', uid, college] as const,
  notes: (uid: string) => ['notes', uid] as const,
  /** Every college of the list at a glance, with its application and aid offer. */
  season: (uid: string) => ['season', uid] as const,
  deadlines: (uid: string) => ['deadlines', uid] as const,
  calendarFeed: (uid: string) => ['calendar-feed', uid] as const,
  profile: (uid: string) => ['student-profile', uid] as const,
  /** Each college on the list with its prompts (the essay workspace). */
  myPrompts: (uid: string) => ['my-essay-prompts', uid] as const,
  drafts: (uid: string) => ['essay-drafts', uid] as const,
  draftVersions: (uid: string, draftId: string) => ['essay-draft-versions', uid, draftId] as const,
};

/** The signed-in student's uid ('' when signed out: the pages using it are behind RequireAuth). */
export function useUid(): string {
  const { user } = useSession();
  return user?.uid ?? '';
}
