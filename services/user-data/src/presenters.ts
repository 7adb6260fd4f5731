// Rows become API shapes here, and only here: repositories return what Postgres stores, routes answer
// with what the contracts in packages/contracts/src/user-data/ describe.
import {
  officialDataYears,
  sourceYear,
  type ListOutcome,
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
  type AidOffer,
  type Application,
  type ApplicationPlan,
  type ApplicationStatus,
  type SeasonCollege,
  type ShareLink,
  expectedDecision,
  plansOffered,
  seasonDates,
} from '@ct/contracts';
import type { ListedCollegeRow, RemovedCollegeRow, UserCollegeRow } from './repositories/colleges.ts';
import type { DraftRow, DraftVersionRow } from './repositories/drafts.ts';
import type { FeedRow } from './repositories/feeds.ts';
import type { NoteRow } from './repositories/notes.ts';
import type { ProfileRow } from './repositories/profiles.ts';
import type { AcademicRow } from './repositories/academic.ts';
import type { RecommenderRow } from './repositories/recommenders.ts';
import type { AidOfferRow, ApplicationRow } from './repositories/season.ts';
import type { ResolvedDeadline, StudentDeadline } from './deadlines/types.ts';
import type { NoteReadRow } from './repositories/note-reads.ts';
import type { ShareLinkRow } from './repositories/share-links.ts';

const iso = (d: Date) => d.toISOString();

export const presentUserCollege = (r: ListedCollegeRow): UserCollege => ({
  collegeId: r.college_key,
  collegeName: r.college_name,
  ...(r.scorecard_id !== null ? { scorecardId: r.scorecard_id } : {}),
  addedAt: iso(r.added_at),
});

/** Presented lists by the list they come from (see `presentUserColleges`). */
const presentedLists = new WeakMap<readonly ListedCollegeRow[], UserCollege[]>();

/**
 * A student's list as the API gives it. The repository answers repeated reads with the same (shared,
 * never modified) array while the list is unchanged, so it is presented once per cached list rather than
 * on every read (ten dates formatted per request was 4 % of the gateway's busy time serving it). Shared
 * likewise: do not modify the result.
 */
export function presentUserColleges(rows: readonly ListedCollegeRow[]): UserCollege[] {
  let list = presentedLists.get(rows);
  if (!list) presentedLists.set(rows, (list = rows.map(presentUserCollege)));
  return list;
}

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

/** Nothing set yet reads as every part unset. */
export const presentProfile = (r: ProfileRow | null): StudentProfile =>
  r
    ? {
        homeState: r.home_state,
        incomeBand: r.income_band,
        pellEligible: r.pell_eligible,
        firstGeneration: r.first_generation,
        updatedAt: iso(r.updated_at),
      }
    : { homeState: null, incomeBand: null, pellEligible: null, firstGeneration: null, updatedAt: null };

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
export const presentResources = (college: College): Resources => {
  const source = college.sources['info.admissionStatistics'];
  return {
    links: college.links,
    tips: college.info.tips,
    admissionStatistics: college.info.admissionStatistics,
    ...(source ? { admissionStatisticsSource: source } : {}),
  };
};

/**
 * The dashboard's demographics panel: it shows no sources, so the data years of the money figures travel
 * with the demographics (filled in from the sources where the college has none of its own).
 */
export function presentDemographics(college: College): College['demographics'] {
  const years = officialDataYears(college.demographics.dataYears, college.sources);
  return Object.keys(years).length ? { ...college.demographics, dataYears: years } : college.demographics;
}

/** No row yet reads as a college still being researched, nothing set. */
export const presentApplication = (r: ApplicationRow | null): Application => ({
  plan: (r?.plan ?? null) as ApplicationPlan | null,
  status: (r?.status ?? 'researching') as ApplicationStatus,
  submittedOn: r?.submitted_on ?? null,
  expectedDecisionOn: r?.expected_decision_on ?? null,
  decisionOn: r?.decision_on ?? null,
  replyBy: r?.reply_by ?? null,
  depositDue: r?.deposit_due ?? null,
  housingDue: r?.housing_due ?? null,
  portalUrl: r?.portal_url ?? null,
  portalSetUp: r?.portal_set_up ?? false,
  updatedAt: r ? iso(r.updated_at) : null,
});

export const presentAidOffer = (r: AidOfferRow): AidOffer => ({
  costOfAttendance: r.cost_of_attendance,
  grants: r.grants,
  workStudy: r.work_study,
  loans: r.loans,
  totalAidStated: r.total_aid_stated,
});

/**
 * One college of the list as the season overview shows it, with what follows from its application on
 * `today`: the plans its deadlines offer, the expected decision, the next date and the season's dates.
 */
export function presentSeasonCollege(
  college: UserCollegeRow,
  app: ApplicationRow | null,
  offer: AidOfferRow | null,
  recommenders: readonly RecommenderRow[],
  today: string,
  resolved: { all: ResolvedDeadline[]; next: StudentDeadline | null },
): SeasonCollege {
  const items = Object.values(college.checklist).flat();
  // Every plan stays on the card (the student may change their mind); dates are the cycle's, projected.
  const deadlines = resolved.all.map((d) => ({
    type: d.type,
    date: d.date,
    ...(d.projected ? { projected: true } : {}),
    label: d.label,
  }));
  const application = presentApplication(app);
  const next = resolved.next;
  return {
    collegeId: college.college_key,
    collegeName: college.college_name,
    deadlines,
    plansOffered: plansOffered(deadlines),
    application,
    expectedDecision: expectedDecision(application, today),
    nextDate: next
      ? {
          type: next.type,
          date: next.date,
          ...(next.projected ? { projected: true } : {}),
          label: next.label,
          ...(next.sourceUrl ? { sourceUrl: next.sourceUrl } : {}),
          ...(next.due ? { due: next.due } : {}),
        }
      : null,
    seasonDates: seasonDates(application, today),
    checklist: { done: items.filter((i) => i.completed).length, total: items.length },
    recommenders: {
      total: recommenders.length,
      asked: recommenders.filter((r) => r.asked_on !== null || r.submitted_on !== null).length,
      submitted: recommenders.filter((r) => r.submitted_on !== null).length,
    },
    aidOffer: offer ? presentAidOffer(offer) : null,
  };
}
/** An admin's read of a student's notes, as the Admin page lists it. */
export const presentNoteRead = (r: NoteReadRow) => ({
  readerId: r.reader_uid,
  readerEmail: r.reader_email,
  studentId: r.student_uid,
  notes: r.notes,
  readAt: r.read_at.toISOString(),
});

/** A share link as its student lists it: never its token. */
export const presentShareLink = (r: ShareLinkRow): ShareLink => ({
  id: r.id,
  label: r.label,
  scope: r.scope,
  createdAt: iso(r.created_at),
  expiresAt: iso(r.expires_at),
  lastViewedAt: r.last_viewed_at ? iso(r.last_viewed_at) : null,
  viewCount: r.view_count,
});

/**
 * One college of the list with the completion rates of students like the reader (issue 48): each figure as
 * the college document carries it from the College Scorecard (null where the file has none), why the
 * four-year rates are empty when they are, and the year and file they come from.
 */
export function presentListOutcome(
  entry: Pick<ListedCollegeRow, 'college_name' | 'scorecard_id'>,
  college: College | null,
): ListOutcome {
  const o = college?.scorecardId != null ? college.demographics.outcomes : undefined;
  const rate = (v: number | null | undefined) => v ?? null;
  const scorecardId = college?.scorecardId ?? entry.scorecard_id ?? null;
  const base = {
    collegeName: college?.name ?? entry.college_name,
    ...(scorecardId !== null ? { scorecardId } : {}),
  };
  if (!college || college.scorecardId === null || !o) {
    return {
      ...base,
      pellGraduationRate: null,
      noPellNoLoanGraduationRate: null,
      graduationRate: null,
      firstGenCompletionRate: null,
      allStudentsGraduationRate: null,
      lessThan4yr: null,
      gap: 'no-record',
      year: null,
      source: null,
    };
  }
  const lessThan4yr = {
    pellGraduationRate: rate(o.lessThan4yrPellGraduationRate),
    noPellNoLoanGraduationRate: rate(o.lessThan4yrNoPellNoLoanGraduationRate),
    allStudentsGraduationRate: rate(o.lessThan4yrGraduationRate),
  };
  const twoYearRates = Object.values(lessThan4yr).some((v) => v !== null);
  const fourYearRates = o.pellGraduationRate !== null || o.noPellNoLoanGraduationRate !== null;
  const degree = college.demographics.predominantDegree ?? null;
  const src = college.sources;
  const source = src['demographics.outcomes'] ?? src['demographics.finance'] ?? src.demographics ?? null;
  return {
    ...base,
    pellGraduationRate: o.pellGraduationRate,
    noPellNoLoanGraduationRate: o.noPellNoLoanGraduationRate,
    graduationRate: o.pooledGraduationRate,
    firstGenCompletionRate: o.firstGenCompletionRate,
    allStudentsGraduationRate: rate(o.allGraduationRate),
    lessThan4yr: twoYearRates ? lessThan4yr : null,
    gap: fourYearRates ? null : twoYearRates || degree === 1 || degree === 2 ? 'two-year' : 'not-reported',
    year: college.demographics.dataYears?.completion ?? sourceYear(source ?? undefined),
    source,
  };
}
