import type { ApplicationPlan } from '@ct/contracts';

/** What kind of date a student can miss (or is told about). */
export type DeadlineKind =
  | 'application'
  | 'priority-merit'
  | 'css-profile'
  | 'fafsa'
  | 'interview'
  | 'reply'
  | 'deposit'
  | 'housing'
  | 'decision'
  | 'note'
  | 'other';

/** An admission cycle: the student applies from August to July for the fall of `enteringYear`. */
export interface Cycle {
  enteringYear: number;
  /** First day, YYYY-MM-DD (August 1 of the year before entry) */
  from: string;
  /** Last day, YYYY-MM-DD (July 31 of the entry year) */
  to: string;
  /** "2026-27" */
  label: string;
}

/** The moment a deadline is due: 11:59 pm in a zone. */
export interface DueMoment {
  /** The instant, ISO 8601 in UTC */
  at: string;
  /** IANA zone id, e.g. "America/New_York" */
  zone: string;
  /** "Eastern Time" */
  zoneName: string;
  /**
   * Why that zone: 'student' (Common App: the student's own local time), 'college' (the college's zone,
   * from its state and city), 'assumed' (neither known: Eastern Time, said so).
   */
  basis: 'student' | 'college' | 'assumed';
}

/** One deadline of a college as the card lists it: every plan, this cycle's date or last cycle's, projected. */
export interface ResolvedDeadline {
  type: string;
  /** YYYY-MM-DD; null for an undated (rolling) plan */
  date: string | null;
  kind: DeadlineKind;
  plan: ApplicationPlan | null;
  /** True when the date is last cycle's, moved one year on */
  projected: boolean;
  /** The date it was projected from */
  projectedFrom: string | null;
  /** "January 1, 2027", or "Expected January 1, 2027 (last cycle's date; confirm on the college's site)" */
  label: string;
}

/** One dated item of a student's deadlines: what the calendar, file, feed, Coming up and reminders use. */
export interface StudentDeadline {
  /** Where it comes from: a college's deadline, the application's season, a note, or the aid calendar */
  origin: 'college' | 'season' | 'note' | 'aid';
  collegeName: string | null;
  collegeKey: string | null;
  /** The deadline's type ("Regular Decision"), the note's title, or the aid date's title */
  type: string;
  kind: DeadlineKind;
  plan: ApplicationPlan | null;
  /** YYYY-MM-DD: the due day (projected when `projected`) */
  date: string;
  projected: boolean;
  projectedFrom: string | null;
  label: string;
  /** The page the date comes from, when known */
  sourceUrl: string | null;
  /** 11:59 pm in its zone for a deadline; null for a day that is not due at a time (a note, an opening) */
  due: DueMoment | null;
  /** More words for the calendar (a note's content, an aid date's details) */
  details: string | null;
  noteId: string | null;
}

/** A student's deadlines for their cycle: every view reads these. */
export interface StudentDeadlines {
  today: string;
  cycle: Cycle;
  /** Days before a deadline to remind (the student's choice, else 30/14/7/1) */
  reminderDays: number[];
  /** The applicable dated items of the cycle (and the student's notes), soonest first, passed ones included */
  items: StudentDeadline[];
  /**
   * Per college key: every deadline of the college (all plans, for the card), its applicable dated items,
   * and its next applicable one still ahead
   */
  colleges: Map<string, { all: ResolvedDeadline[]; items: StudentDeadline[]; next: StudentDeadline | null }>;
}
