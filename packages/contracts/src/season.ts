/**
 * Plain rules of the application season, shared by the server and the browser (no schema library, safe
 * for the bundle: import from `@ct/contracts/season`): plans and statuses, the dates that follow a
 * decision, the next date of a college, and the arithmetic of an aid offer.
 */
import { addDays, daysBetween, entryYear, isIsoDay } from './planning.ts';
import { compareIso } from './numbers.ts';

// ---- plans ----

export const APPLICATION_PLANS = ['ED', 'EA', 'REA', 'RD', 'rolling'] as const;
export type ApplicationPlan = (typeof APPLICATION_PLANS)[number];

export const PLAN_LABELS: Record<ApplicationPlan, string> = {
  ED: 'Early Decision',
  EA: 'Early Action',
  REA: 'Restrictive Early Action',
  RD: 'Regular Decision',
  rolling: 'Rolling admission',
};

/**
 * The application plans a college's deadline can be: a closed set, each with what it means for the
 * student (issue 44). A deadline's words, its calendar event's name and the binding rule follow its type,
 * never the wording of the page or answer it came from.
 */
export const PLAN_TYPES = ['ED', 'ED2', 'EA', 'EA2', 'REA', 'SCEA', 'RD', 'rolling'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export interface PlanMeaning {
  /** The words a student reads, everywhere */
  label: string;
  /** The plan a student chooses when applying under it */
  plan: ApplicationPlan;
  /** Admitted, the student must enroll there and withdraw every other application */
  binding: boolean;
  /** The student may apply early to no other private college */
  restrictive: boolean;
}

export const PLAN_TYPE_MEANINGS: Record<PlanType, PlanMeaning> = {
  ED: { label: 'Early Decision', plan: 'ED', binding: true, restrictive: false },
  ED2: { label: 'Early Decision II', plan: 'ED', binding: true, restrictive: false },
  EA: { label: 'Early Action', plan: 'EA', binding: false, restrictive: false },
  EA2: { label: 'Early Action II', plan: 'EA', binding: false, restrictive: false },
  REA: { label: 'Restrictive Early Action', plan: 'REA', binding: false, restrictive: true },
  SCEA: { label: 'Single-Choice Early Action', plan: 'REA', binding: false, restrictive: true },
  RD: { label: 'Regular Decision', plan: 'RD', binding: false, restrictive: false },
  rolling: { label: 'Rolling admission', plan: 'rolling', binding: false, restrictive: false },
};

/**
 * The plan type a deadline's words name ("Early Decision II", "ED2", "Single-Choice Early Action");
 * null when they name none of the closed set (a financial aid date, a scholarship deadline).
 */
export function planTypeOf(words: string): PlanType | null {
  const second = (w: string) => new RegExp(`(${w})\\s*(II|2)\\b`, 'i');
  if (/single[- ]choice|\bSCEA\b/i.test(words)) return 'SCEA';
  if (/restrictive|\bREA\b/i.test(words)) return 'REA';
  if (/early decision|\bED\s?(I|II|1|2)?\b/i.test(words))
    return second('early decision|\\bED').test(words) ? 'ED2' : 'ED';
  if (/early action|\bEA\s?(I|II|1|2)?\b/i.test(words))
    return second('early action|\\bEA').test(words) ? 'EA2' : 'EA';
  if (/regular|\bRD\b/i.test(words)) return 'RD';
  if (/rolling/i.test(words)) return 'rolling';
  return null;
}

/** Two plan types the same plan for a college: equal, or both single-choice (REA and SCEA name one plan). */
export const samePlanType = (a: PlanType, b: PlanType) =>
  a === b || (PLAN_TYPE_MEANINGS[a].restrictive && PLAN_TYPE_MEANINGS[b].restrictive);

/** The plan a college deadline belongs to, by its type ("Early Decision II" → ED); null when none. */
export function planOfDeadline(type: string): ApplicationPlan | null {
  const t = planTypeOf(type);
  return t ? PLAN_TYPE_MEANINGS[t].plan : null;
}

/** The plans a college offers, from its deadlines, in the order of the plan list. */
export function plansOffered(
  deadlines: ReadonlyArray<{ type: string; date: string | null }>,
): ApplicationPlan[] {
  const found = new Set(deadlines.map((d) => planOfDeadline(d.type)).filter((p) => p !== null));
  return APPLICATION_PLANS.filter((p) => found.has(p));
}

/** What an Early Decision plan binds the student to, said plainly. */
export const ED_RULE =
  'Early Decision is binding: if you are admitted, you must enroll there and withdraw every other application.';

// ---- statuses ----

export const APPLICATION_STATUSES = [
  'researching',
  'applying',
  'submitted',
  'admitted',
  'admitted-with-aid',
  'deferred',
  'waitlisted',
  'denied',
  'withdrawn',
  'enrolled',
  'declined',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const STATUS_LABELS: Record<ApplicationStatus, string> = {
  researching: 'Researching',
  applying: 'Applying',
  submitted: 'Submitted',
  admitted: 'Admitted',
  'admitted-with-aid': 'Admitted with an aid offer',
  deferred: 'Deferred',
  waitlisted: 'Waitlisted',
  denied: 'Denied',
  withdrawn: 'Withdrawn',
  enrolled: 'Enrolled',
  declined: 'Declined',
};

export const isAdmitted = (s: ApplicationStatus) => s === 'admitted' || s === 'admitted-with-aid';
/** A decision has come (or the student has answered it). */
export const isDecided = (s: ApplicationStatus) => !['researching', 'applying', 'submitted'].includes(s);
/** Enrolled and declined answer an admission: only an admitted college (or one already answered) takes them. */
export const canAnswer = (before: ApplicationStatus) =>
  isAdmitted(before) || before === 'enrolled' || before === 'declined';

// ---- dates ----

/** How far from today a season date may be, in days (either way). */
export const SEASON_DATE_RANGE_DAYS = 3 * 366;

/** True when a date lies within the range a season date may take. */
export function inSeasonRange(date: string, today: string): boolean {
  return isIsoDay(date) && Math.abs(daysBetween(today, date)) <= SEASON_DATE_RANGE_DAYS;
}

/** The National Candidates Reply Date of the coming cycle: May 1 of the entry year. */
export const replyDate = (today: string) => `${entryYear(today)}-05-01`;

/** What the season rules need of a student's application to one college. */
export interface SeasonApplication {
  plan: ApplicationPlan | null;
  status: ApplicationStatus;
  submittedOn: string | null;
  expectedDecisionOn: string | null;
  decisionOn: string | null;
  replyBy: string | null;
  depositDue: string | null;
  housingDue: string | null;
}

/**
 * The expected decision date: the student's own when they typed one, else an estimate from the plan
 * (mid-December for early plans, April 1 for Regular Decision, six weeks after submission for rolling).
 */
export function expectedDecision(
  a: SeasonApplication,
  today: string,
): { date: string; estimated: boolean } | null {
  if (a.expectedDecisionOn) return { date: a.expectedDecisionOn, estimated: false };
  const entry = entryYear(today);
  switch (a.plan) {
    case 'ED':
    case 'EA':
    case 'REA':
      return { date: `${entry - 1}-12-15`, estimated: true };
    case 'RD':
      return { date: `${entry}-04-01`, estimated: true };
    case 'rolling':
      return a.submittedOn ? { date: addDays(a.submittedOn, 42), estimated: true } : null;
    default:
      return null;
  }
}

/** Days before the reply date to ask for a review of an aid offer. */
export const AID_APPEAL_LEAD_DAYS = 21;
/** Days after a waitlist decision to send a letter of continued interest. */
export const LOCI_AFTER_DAYS = 7;

export interface SeasonDate {
  /** What the calendar names it, e.g. "Reply by (May 1)" */
  type: string;
  date: string;
}

/**
 * The dates that follow an application, for the calendar, the ICS file and the feed: the expected
 * decision (until it comes) and the real one, the reply date, deposit and housing deadlines, a reminder
 * to ask for an aid review before replying, and a letter of continued interest for a waitlist.
 */
export function seasonDates(a: SeasonApplication, today: string): SeasonDate[] {
  const out: SeasonDate[] = [];
  if (a.submittedOn) out.push({ type: 'Application submitted', date: a.submittedOn });
  if (a.status === 'submitted' || a.status === 'deferred') {
    const e = expectedDecision(a, today);
    if (e)
      out.push({ type: e.estimated ? 'Decision expected (estimated)' : 'Decision expected', date: e.date });
  }
  if (a.decisionOn) out.push({ type: 'Decision received', date: a.decisionOn });
  if (isAdmitted(a.status)) {
    const reply = a.replyBy ?? replyDate(today);
    out.push({ type: a.replyBy ? 'Reply by' : 'Reply by (May 1)', date: reply });
    out.push({ type: 'Enrollment deposit due', date: a.depositDue ?? reply });
    if (a.housingDue) out.push({ type: 'Housing application due', date: a.housingDue });
    if (a.status === 'admitted-with-aid')
      out.push({
        type: 'Ask for an aid review (appeal) before replying',
        date: addDays(reply, -AID_APPEAL_LEAD_DAYS),
      });
  }
  if (a.status === 'enrolled') {
    if (a.depositDue) out.push({ type: 'Enrollment deposit due', date: a.depositDue });
    if (a.housingDue) out.push({ type: 'Housing application due', date: a.housingDue });
  }
  if (a.status === 'waitlisted')
    out.push({
      type: 'Send a letter of continued interest',
      date: addDays(a.decisionOn ?? today, LOCI_AFTER_DAYS),
    });
  return out.filter((d) => isIsoDay(d.date)).sort((x, y) => compareIso(x.date, y.date));
}

/**
 * The next date a student must act on for one college, today or later: before submission, the deadline
 * of their plan (any application deadline when no plan is chosen); after it, the season's dates.
 */
export function nextDate(
  deadlines: ReadonlyArray<{ type: string; date: string | null }>,
  a: SeasonApplication,
  today: string,
): SeasonDate | null {
  const candidates: SeasonDate[] = [];
  if (a.status === 'researching' || a.status === 'applying') {
    for (const d of deadlines) {
      if (!d.date || !isIsoDay(d.date)) continue;
      const plan = planOfDeadline(d.type);
      if (a.plan ? plan === a.plan : plan !== null) candidates.push({ type: d.type, date: d.date });
    }
  }
  for (const d of seasonDates(a, today))
    if (d.type !== 'Application submitted' && d.type !== 'Decision received') candidates.push(d);
  return (
    candidates.filter((d) => daysBetween(today, d.date) >= 0).sort((x, y) => compareIso(x.date, y.date))[0] ??
    null
  );
}

// ---- aid offers ----

export const LOAN_KINDS = [
  'federal-subsidized',
  'federal-unsubsidized',
  'parent-plus',
  'private',
  'institutional',
  'other',
] as const;
export type LoanKind = (typeof LOAN_KINDS)[number];

export const LOAN_LABELS: Record<LoanKind, string> = {
  'federal-subsidized': 'Federal Direct Subsidized',
  'federal-unsubsidized': 'Federal Direct Unsubsidized',
  'parent-plus': 'Parent PLUS',
  private: 'Private',
  institutional: 'Institutional',
  other: 'Other loan',
};

/** An award letter as the student typed it in, in whole dollars a year. */
export interface AidOfferLines {
  /** As the letter states it; null when the letter does not state it */
  costOfAttendance: number | null;
  grants: ReadonlyArray<{ name: string; amount: number }>;
  workStudy: number;
  loans: ReadonlyArray<{ kind: LoanKind; amount: number }>;
  /** The "total aid" the letter claims, when it gives one */
  totalAidStated: number | null;
}

export interface AidOfferFigures {
  grants: number;
  loans: number;
  workStudy: number;
  /** Cost of attendance minus grants and scholarships only; null without a stated cost */
  netCost: number | null;
  /** Net cost minus work-study: what the family pays from savings, earnings or loans */
  leftToPay: number | null;
  flags: Array<'no-cost-of-attendance' | 'loans-counted-as-aid'>;
}

const sum = (xs: ReadonlyArray<{ amount: number }>) => xs.reduce((t, x) => t + x.amount, 0);

/**
 * What an offer means: the net cost (the cost minus grants, never loans), what is left to pay, and loans
 * apart. Flags an offer that leaves out the cost of attendance, or whose stated total aid (or a line
 * typed as a grant) includes loans.
 */
export function aidOfferFigures(o: AidOfferLines): AidOfferFigures {
  const grants = sum(o.grants);
  const loans = sum(o.loans);
  const flags: AidOfferFigures['flags'] = [];
  if (o.costOfAttendance === null) flags.push('no-cost-of-attendance');
  const loanAsGrant = o.grants.some((g) => /\bloans?\b/i.test(g.name));
  if (loanAsGrant || (o.totalAidStated !== null && loans > 0 && o.totalAidStated > grants + o.workStudy))
    flags.push('loans-counted-as-aid');
  const netCost = o.costOfAttendance === null ? null : o.costOfAttendance - grants;
  return {
    grants,
    loans,
    workStudy: o.workStudy,
    netCost,
    leftToPay: netCost === null ? null : Math.max(0, netCost - o.workStudy),
    flags,
  };
}
