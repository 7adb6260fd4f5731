/**
 * What applying to a list costs (issue 22): each college's application fee from the Common App grid (with
 * its cycle), the CSS Profile where a college requires it (College Board's schedule), the total, and a
 * fee-waiver self-check. Unknowns read "No Info Found" and stay out of the totals, with a note.
 */
import { CSS_PROFILE_FEES, CSS_PROFILE_REQUIRED, FEE_WAIVER_SOURCES } from './data/application-costs.ts';

export { CSS_PROFILE_FEES, CSS_PROFILE_REQUIRED, FEE_WAIVER_SOURCES };

export const NO_INFO = 'No Info Found';

/** One college as the cost check reads it. */
export interface CostInput {
  name: string;
  scorecardId: number | null;
  /** Application fee in U.S. dollars for U.S. applicants (Common App grid), null when not published */
  applicationFee: number | null;
  /** Where the fee comes from, e.g. "Common App requirements grid 2025-26" */
  feeSource: string | null;
}

export interface CostLine {
  name: string;
  applicationFee: number | null;
  feeSource: string | null;
  /** true when the college requires the CSS Profile, null when we do not know ("No Info Found") */
  cssProfile: true | null;
}

export interface ApplyCosts {
  lines: CostLine[];
  feesTotal: number;
  /** Colleges the CSS Profile goes to, and what it costs for all of them */
  cssColleges: number;
  cssTotal: number;
  total: number;
  notes: string[];
}

export const COST_MSG = {
  feesUnknown: (n: number) =>
    `${n} ${n === 1 ? 'college has' : 'colleges have'} no published application fee (${NO_INFO}) and ${n === 1 ? 'is' : 'are'} left out of the total.`,
  cssUnknown: (n: number) =>
    `For ${n} ${n === 1 ? 'college' : 'colleges'} we found no CSS Profile requirement (${NO_INFO}); check the financial aid page before you count on no fee.`,
  cssSchedule: (first: number, more: number, asOf: string) =>
    `CSS Profile: $${first} for the first college, $${more} for each further one (${asOf} schedule).`,
} as const;

/** Whether the College Board lists the college as requiring the CSS Profile (null: not known). */
export function cssProfileRequired(scorecardId: number | null): true | null {
  return scorecardId !== null && CSS_PROFILE_REQUIRED.unitids.includes(scorecardId) ? true : null;
}

/** The CSS Profile fee for sending it to `n` colleges. */
export function cssProfileCost(n: number): number {
  return n <= 0 ? 0 : CSS_PROFILE_FEES.first + CSS_PROFILE_FEES.additional * (n - 1);
}

/** Application fees, CSS Profile and the total of a list; unknown fees are left out, with a note. */
export function applyCosts(items: CostInput[]): ApplyCosts {
  const lines: CostLine[] = items.map((i) => ({
    name: i.name,
    applicationFee: i.applicationFee,
    feeSource: i.applicationFee === null ? null : i.feeSource,
    cssProfile: cssProfileRequired(i.scorecardId),
  }));
  const feesTotal = lines.reduce((sum, l) => sum + (l.applicationFee ?? 0), 0);
  const cssColleges = lines.filter((l) => l.cssProfile).length;
  const cssTotal = cssProfileCost(cssColleges);
  const notes: string[] = [];
  const unknownFees = lines.filter((l) => l.applicationFee === null).length;
  if (unknownFees) notes.push(COST_MSG.feesUnknown(unknownFees));
  if (cssColleges)
    notes.push(
      COST_MSG.cssSchedule(CSS_PROFILE_FEES.first, CSS_PROFILE_FEES.additional, CSS_PROFILE_FEES.asOf),
    );
  const cssUnknown = lines.length - cssColleges;
  if (cssUnknown) notes.push(COST_MSG.cssUnknown(cssUnknown));
  return { lines, feesTotal, cssColleges, cssTotal, total: feesTotal + cssTotal, notes };
}

/** The fee-waiver self-check: the published criteria, in our own words. */
export const FEE_WAIVER_CHECKS = [
  { id: 'testWaiver', text: 'You received, or qualify for, an SAT or ACT fee waiver.', for: 'commonApp' },
  { id: 'lunch', text: 'You get, or qualify for, free or reduced-price school meals.', for: 'commonApp' },
  {
    id: 'income',
    text: 'Your family’s income is within the USDA limits for free or reduced-price school meals.',
    for: 'commonApp',
  },
  {
    id: 'program',
    text: 'You take part in a program for students from low-income families (TRIO, Upward Bound, GEAR UP or similar).',
    for: 'commonApp',
  },
  { id: 'assistance', text: 'Your family receives public assistance.', for: 'commonApp' },
  {
    id: 'housing',
    text: 'You live in federally subsidized public housing or a foster home, or you are homeless.',
    for: 'commonApp',
  },
  { id: 'ward', text: 'You are a ward of the state or an orphan.', for: 'commonApp' },
  {
    id: 'cssIncome',
    text: 'You are a first-time U.S. undergraduate applicant and your family earns up to $100,000 a year.',
    for: 'cssProfile',
  },
] as const;
export type FeeWaiverCheck = (typeof FEE_WAIVER_CHECKS)[number]['id'];

export const WAIVER_MSG = {
  commonApp:
    'You may qualify for a Common App fee waiver: request it in the Common App profile; your counselor confirms it.',
  cssProfile: 'You may qualify for a CSS Profile fee waiver: it is granted when you submit the Profile.',
  none: 'None of these applies, so a fee waiver is unlikely; a college may still waive its fee if you ask.',
} as const;

/** What the ticked criteria mean: which waivers the student may qualify for. */
export function feeWaiverResult(ticked: readonly FeeWaiverCheck[]): string[] {
  const kinds = new Set(FEE_WAIVER_CHECKS.filter((c) => ticked.includes(c.id)).map((c) => c.for));
  const out: string[] = [];
  if (kinds.has('commonApp')) out.push(WAIVER_MSG.commonApp);
  if (kinds.has('cssProfile') || (kinds.has('commonApp') && ticked.includes('testWaiver')))
    out.push(WAIVER_MSG.cssProfile);
  return out.length ? out : [WAIVER_MSG.none];
}
