// Rows become API shapes here, and only here: repositories return what Postgres stores, routes answer
// with what the contracts in packages/contracts/src/user-data/ describe.
import {
  moneyDataYears,
  type AcademicProfile,
  type CalendarFeedStatus,
  type College,
  type DeadlineItem,
  type EssayDraft,
  type EssayDraftVersion,
  type ExportedCollege,
  type Note,
  type Recommender,
  type RemovedCollege,
  type Resources,
  type StudentProfile,
  type UserCollege,
} from '@ct/contracts';
import type { ListedCollegeRow, RemovedCollegeRow, UserCollegeRow } from './repositories/colleges.ts';
import type { DraftRow, DraftVersionRow } from './repositories/drafts.ts';
import type { FeedRow } from './repositories/feeds.ts';
import type { NoteRow } from './repositories/notes.ts';
import type { ProfileRow } from './repositories/profiles.ts';
import type { AcademicRow } from './repositories/academic.ts';
import type { RecommenderRow } from './repositories/recommenders.ts';

const iso = (d: Date) => d.toISOString();

export const presentUserCollege = (r: ListedCollegeRow): UserCollege => ({
  collegeId: r.college_key,
  collegeName: r.college_name,
  addedAt: iso(r.added_at),
});

/** A college of the list with its checklist, as the data export gives it. */
export const presentExportedCollege = (r: UserCollegeRow): ExportedCollege => ({
  collegeId: r.college_key,
  collegeName: r.college_name,
  addedAt: iso(r.added_at),
  checklist: r.checklist,
});

export const presentRemovedCollege = (r: RemovedCollegeRow): RemovedCollege => ({
  collegeId: r.college_key,
  collegeName: r.college_name,
  removedAt: iso(r.removed_at),
  checklist: r.checklist,
});

export const presentNote = (r: NoteRow): Note => ({
  id: r.id,
  title: r.title,
  content: r.content,
  deadline: r.deadline,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** A note with a date, among the deadlines. */
export const presentNoteDeadline = (r: NoteRow & { deadline: string }): DeadlineItem => ({
  noteId: r.id,
  title: r.title,
  content: r.content,
  deadline: r.deadline,
});

export const presentDraft = (r: DraftRow): EssayDraft => ({
  id: r.id,
  promptKey: r.prompt_key,
  prompt: r.prompt,
  body: r.body,
  wordCount: r.word_count,
  revision: r.revision,
  versions: r.versions,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export const presentDraftVersion = (r: DraftVersionRow): EssayDraftVersion => ({
  id: r.id,
  body: r.body,
  wordCount: r.word_count,
  createdAt: iso(r.created_at),
});

export const presentRecommender = (r: RecommenderRow): Recommender => ({
  id: r.id,
  collegeName: r.college_name,
  who: r.who,
  askedOn: r.asked_on,
  submittedOn: r.submitted_on,
  createdAt: iso(r.created_at),
});

/** Nothing set yet reads as both parts unset. */
export const presentProfile = (r: ProfileRow | null): StudentProfile =>
  r
    ? { homeState: r.home_state, incomeBand: r.income_band, updatedAt: iso(r.updated_at) }
    : { homeState: null, incomeBand: null, updatedAt: null };

/** The academic profile; test-optional choices by the names on the student's list (`names`: key to name). */
export const presentAcademicProfile = (r: AcademicRow | null, names: Map<string, string>): AcademicProfile =>
  r
    ? {
        satReadingWriting: r.sat_reading_writing,
        satMath: r.sat_math,
        act: r.act_composite,
        gpa: r.gpa === null ? null : Number(r.gpa),
        yearlyBudget: r.yearly_budget,
        testOptional: r.test_optional.map((k) => names.get(k) ?? k),
        updatedAt: iso(r.updated_at),
      }
    : {
        satReadingWriting: null,
        satMath: null,
        act: null,
        gpa: null,
        yearlyBudget: null,
        testOptional: [],
        updatedAt: null,
      };

export const presentFeedStatus = (r: FeedRow | null): CalendarFeedStatus =>
  r
    ? { active: true, createdAt: iso(r.created_at), lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null }
    : { active: false, createdAt: null, lastUsedAt: null };

/** Rows of several students grouped per student, in the order of `ids` (an admin page). */
export function perStudent<R extends { user_id: string }, T>(
  ids: string[],
  rows: R[],
  present: (r: R) => T,
): Array<{ userId: string; items: T[] }> {
  const byUser = new Map(ids.map((id) => [id, [] as T[]]));
  for (const r of rows) byUser.get(r.user_id)?.push(present(r));
  return ids.map((userId) => ({ userId, items: byUser.get(userId) ?? [] }));
}

/** The dashboard's resources panel of a college. */
export const presentResources = (college: College): Resources => ({
  links: college.links,
  tips: college.info.tips,
  admissionStatistics: college.info.admissionStatistics,
});

/**
 * The dashboard's demographics panel: it shows no sources, so the data years of the money figures travel
 * with the demographics (filled in from the sources where the college has none of its own).
 */
export function presentDemographics(college: College): College['demographics'] {
  const years = {
    ...moneyDataYears(college.demographics.dataYears, college.sources),
    ...college.demographics.dataYears,
  };
  return Object.keys(years).length ? { ...college.demographics, dataYears: years } : college.demographics;
}
