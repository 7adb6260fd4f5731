import type { ListOutcome, StudentProfile } from '@ct/contracts';

/** Which rate of a college applies to the student, by what they chose on their profile (issue 48). */
export type RateKey = 'pellGraduationRate' | 'noPellNoLoanGraduationRate' | 'allStudentsGraduationRate';

export const RATE_LABELS: Record<RateKey | 'firstGenCompletionRate', string> = {
  pellGraduationRate: 'Pell Grant students',
  noPellNoLoanGraduationRate: 'Students with neither a Pell Grant nor a subsidized loan',
  allStudentsGraduationRate: 'All students',
  firstGenCompletionRate: 'First-generation students',
};

/**
 * The rate the list is sorted by: Pell Grant students' for a student who expects a Pell Grant, the
 * non-Pell, no-loan students' for one who does not, else everyone's. First-generation completion would come
 * first for a first-generation student, but only where the file has it (`firstGenUsable`).
 */
export function rateFor(profile: Pick<StudentProfile, 'pellEligible'> | undefined): RateKey {
  if (profile?.pellEligible === true) return 'pellGraduationRate';
  if (profile?.pellEligible === false) return 'noPellNoLoanGraduationRate';
  return 'allStudentsGraduationRate';
}

/** The value a college is sorted by: its applicable rate, a two-year college's own one where it has one. */
export function applicableRate(c: ListOutcome, key: RateKey, firstGen: boolean): number | null {
  if (firstGen && c.firstGenCompletionRate !== null) return c.firstGenCompletionRate;
  const own = c[key];
  if (own !== null) return own;
  return c.lessThan4yr?.[key] ?? null;
}

/** The list sorted by the rate that applies, highest first; colleges without one keep their order, last. */
export function sortByApplicable(
  list: readonly ListOutcome[],
  key: RateKey,
  firstGen: boolean,
): ListOutcome[] {
  return list
    .map((c, i) => ({ c, i, v: applicableRate(c, key, firstGen) }))
    .sort((a, b) =>
      a.v === null ? (b.v === null ? a.i - b.i : 1) : b.v === null ? -1 : b.v - a.v || a.i - b.i,
    )
    .map((x) => x.c);
}

/**
 * The gap between Pell Grant students and students with neither a Pell Grant nor a subsidized loan, in
 * whole percentage points and plain words; null when either rate is missing.
 */
export function gapSentence(pell: number | null, noPell: number | null): string | null {
  if (pell === null || noPell === null) return null;
  const points = Math.round((noPell - pell) * 100);
  if (points === 0)
    return 'Pell Grant students finish about as often here as students with neither a Pell Grant nor a subsidized loan.';
  const n = Math.abs(points);
  return `Pell Grant students finish ${n} ${n === 1 ? 'point' : 'points'} ${points > 0 ? 'less' : 'more'} often here than students with neither a Pell Grant nor a subsidized loan.`;
}

/** Why a college's four-year Pell and non-Pell rates are empty, naming the fields. */
export function gapExplanation(c: ListOutcome): string | null {
  switch (c.gap) {
    case 'no-record':
      return 'No College Scorecard record for this college, so there are no official rates to show.';
    case 'two-year':
      return 'A two-year college: the Scorecard reports its rates in the less-than-four-year fields (C150_L4_PELL, C150_L4_NOLOANNOPELL), shown here instead of the four-year ones.';
    case 'not-reported':
      return 'The Scorecard file has no Pell or non-Pell rate for this college (C150_4_PELL, C150_4_NOLOANNOPELL are empty), often because too few students were in the group.';
    default:
      return null;
  }
}

/** Why the first-generation rate is empty: the 2021-22 year file leaves it out for every college. */
export const FIRST_GEN_MISSING =
  'Not in the 2021-22 College Scorecard year file: it leaves first-generation completion (FIRSTGEN_COMP_ORIG_YR4_RT) empty for every college.';

/** The pooled rate (C150_4_POOLED) is empty for every college of the year file too. */
export const POOLED_MISSING =
  'The pooled rate over two cohorts (C150_4_POOLED) is empty in the 2021-22 year file, so "All students" is the single cohort rate (C150_4).';
