/**
 * The academic fit band of one college for one student, and the balance of a list (ADR 0090). Plain
 * rules shared by the server and the browser (no schema library, safe for the bundle: import from
 * `@ct/contracts/fit`). A band is never a probability: it says how the student's scores sit against the
 * middle half of admitted students, section by section, and why, in one sentence naming its data year.
 */
import { formatNumberEnUs } from './numbers.ts';

/** The bands, in the order a list shows them. */
export const FIT_BANDS = ['reach', 'target', 'likely', 'not enough data'] as const;
export type FitBand = (typeof FIT_BANDS)[number];

/** Below this admission rate a college is a reach for every student, whatever their scores. */
export const REACH_FOR_EVERYONE_RATE = 0.15;

/** What the student told us (any part may be missing). */
export interface AcademicScores {
  /** SAT Evidence-Based Reading and Writing, 200-800 */
  satReadingWriting: number | null;
  /** SAT Math, 200-800 */
  satMath: number | null;
  /** ACT composite, 1-36 */
  act: number | null;
}

/** The college's published figures the rule reads (College Scorecard and Common App grid). */
export interface FitFacts {
  /** Fraction 0..1 (Scorecard ADM_RATE) */
  admissionRate: number | null;
  /** 25th/75th percentiles per section (Scorecard SATVR25/75, SATMT25/75, ACTCM25/75) */
  satReading25?: number | null;
  satReading75?: number | null;
  satMath25?: number | null;
  satMath75?: number | null;
  act25?: number | null;
  act75?: number | null;
  /** Scorecard ADMCON7 code */
  testRequirement?: number | null;
  /** Scorecard OPENADMP: the college admits every applicant */
  openAdmissions?: boolean | null;
  /** The year of the Scorecard admissions figures, e.g. "2021-22" */
  dataYear: string | null;
  /** The Common App grid's test policy code (required, optional, flexible, free), when the college is in it */
  gridTestPolicy?: string | null;
  /** The grid's cycle, e.g. "2025-26" */
  gridCycle?: string | null;
}

/**
 * How the college treats test scores: required, optional (scores considered when sent), or not
 * considered (test-free, or "neither required nor recommended" in ADMCON7: scores are then not compared).
 */
export type TestPolicy = 'required' | 'optional' | 'not considered' | 'unknown';

export interface PolicyFact {
  policy: TestPolicy;
  /** Where the policy comes from, in words ("Common App requirements grid 2025-26"), null when unknown */
  source: string | null;
}

export type Position = 'below' | 'within' | 'above';

export interface SectionFit {
  section: 'SAT Reading and Writing' | 'SAT Math' | 'ACT composite';
  score: number;
  p25: number;
  p75: number;
  position: Position;
}

export interface Fit {
  band: FitBand;
  /** Why, in one sentence naming the data year */
  reason: string;
  policy: PolicyFact;
  /** Sections compared (of the test the band rests on); empty when none was */
  sections: SectionFit[];
  /** Year of the Scorecard figures the band rests on */
  dataYear: string | null;
}

const GRID_POLICY: Record<string, TestPolicy> = {
  required: 'required',
  optional: 'optional',
  flexible: 'optional',
  free: 'not considered',
  ignored: 'not considered',
};

/** ADMCON7: 1 required, 2 recommended, 3 neither required nor recommended, 4 do not know, 5 considered but not required. */
const ADMCON7_POLICY: Record<number, TestPolicy> = {
  1: 'required',
  2: 'optional',
  3: 'not considered',
  5: 'optional',
};

/** The test policy: the Common App grid's (the newer cycle) when the college is in it, else ADMCON7. */
export function testPolicyOf(f: FitFacts): PolicyFact {
  const grid = f.gridTestPolicy ? GRID_POLICY[f.gridTestPolicy] : undefined;
  if (grid)
    return { policy: grid, source: `Common App requirements grid${f.gridCycle ? ` ${f.gridCycle}` : ''}` };
  const code = f.testRequirement ?? null;
  const scorecard = code !== null ? ADMCON7_POLICY[code] : undefined;
  if (scorecard)
    return {
      policy: scorecard,
      source: `College Scorecard test requirement (ADMCON7)${f.dataYear ? `, ${f.dataYear}` : ''}`,
    };
  return { policy: 'unknown', source: null };
}

const yearOf = (y: string | null) => (y ? `College Scorecard, ${y}` : 'College Scorecard, year not stated');

/** "4.3%" under 10 %, "57%" otherwise. */
export function percentText(rate: number): string {
  const p = rate * 100;
  return `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

/** Every sentence the rule says (a module of its own words, as every service has). */
export const FIT_MSG = {
  openAdmissions: (year: string | null) =>
    `It admits every applicant (open admissions, ${yearOf(year)}): a likely college whatever your scores.`,
  reachForEveryone: (rate: number, year: string | null) =>
    `It admits ${percentText(rate)} of applicants (${yearOf(year)}); under 15% is a reach for everyone.`,
  below: (s: SectionFit, year: string | null) =>
    `Your ${s.section} (${s.score}) is below the middle half of admitted students (${s.p25}-${s.p75}, ${yearOf(year)}).`,
  above: (test: string, year: string | null) =>
    `Your ${test} ${test === 'SAT' ? 'sections are each' : 'composite is'} above the 75th percentile of admitted students (${yearOf(year)}).`,
  within: (test: string, year: string | null) =>
    `Your ${test} ${test === 'SAT' ? 'sections sit' : 'composite sits'} within or above the middle half of admitted students (${yearOf(year)}).`,
  notConsidered: (source: string | null) =>
    `It does not consider test scores (${source ?? 'source not stated'}), and no public data gives another academic range to compare with.`,
  choseOptional: (year: string | null) =>
    `You chose to apply test-optional here, and no public data gives another academic range to compare with (${yearOf(year)}).`,
  noScores: () => 'Add your SAT or ACT scores to compare them with the ranges of admitted students.',
  noRanges: (year: string | null) =>
    `The College Scorecard publishes no score range here for the test you took (${yearOf(year)}).`,
} as const;

const position = (score: number, p25: number, p75: number): Position =>
  score < p25 ? 'below' : score > p75 ? 'above' : 'within';

const present = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/** The sections of one test the student has and the college publishes a range for. */
function sectionsOf(test: 'SAT' | 'ACT', s: AcademicScores, f: FitFacts): SectionFit[] {
  const out: SectionFit[] = [];
  const add = (
    section: SectionFit['section'],
    score: number | null,
    p25: number | null | undefined,
    p75: number | null | undefined,
  ) => {
    if (present(score) && present(p25) && present(p75))
      out.push({ section, score, p25, p75, position: position(score, p25, p75) });
  };
  if (test === 'SAT') {
    add('SAT Reading and Writing', s.satReadingWriting, f.satReading25, f.satReading75);
    add('SAT Math', s.satMath, f.satMath25, f.satMath75);
  } else {
    add('ACT composite', s.act, f.act25, f.act75);
  }
  return out;
}

/** A test's standing: below when any section is below, above when every section is above, else within. */
const standing = (secs: SectionFit[]): Position =>
  secs.some((x) => x.position === 'below')
    ? 'below'
    : secs.every((x) => x.position === 'above')
      ? 'above'
      : 'within';
const RANK: Record<Position, number> = { below: 0, within: 1, above: 2 };

/**
 * The fit band (ADR 0090). In order: an open-admissions college (it admits every applicant) is likely;
 * an admission rate under 15 % makes a reach for everyone; scores are
 * compared only when the college considers them and the student does not apply test-optional there
 * (a required policy overrides that choice); each section is compared with its own 25th-75th range
 * (sections are never added into a composite): a section below its range makes a reach, every section
 * above makes a likely, anything else a target; with two tests the better standing counts (colleges take
 * the stronger test). Without a comparison the band is "not enough data": GPA is never compared,
 * because no public file gives colleges' GPA ranges.
 */
export function fitBand(
  scores: AcademicScores | null,
  f: FitFacts,
  opts: { testOptional?: boolean } = {},
): Fit {
  const policy = testPolicyOf(f);
  const base = { policy, dataYear: f.dataYear };
  if (f.openAdmissions === true)
    return { ...base, band: 'likely', reason: FIT_MSG.openAdmissions(f.dataYear), sections: [] };
  if (present(f.admissionRate) && f.admissionRate < REACH_FOR_EVERYONE_RATE)
    return {
      ...base,
      band: 'reach',
      reason: FIT_MSG.reachForEveryone(f.admissionRate, f.dataYear),
      sections: [],
    };
  if (policy.policy === 'not considered')
    return { ...base, band: 'not enough data', reason: FIT_MSG.notConsidered(policy.source), sections: [] };
  if (opts.testOptional && policy.policy !== 'required')
    return { ...base, band: 'not enough data', reason: FIT_MSG.choseOptional(f.dataYear), sections: [] };
  const s = scores ?? { satReadingWriting: null, satMath: null, act: null };
  const hasSat = present(s.satReadingWriting) || present(s.satMath);
  if (!hasSat && !present(s.act))
    return { ...base, band: 'not enough data', reason: FIT_MSG.noScores(), sections: [] };
  const tests = (['SAT', 'ACT'] as const)
    .map((test) => ({ test, secs: sectionsOf(test, s, f) }))
    .filter((t) => t.secs.length)
    .map((t) => ({ ...t, standing: standing(t.secs) }))
    .sort((a, b) => RANK[b.standing] - RANK[a.standing]);
  const best = tests[0];
  if (!best) return { ...base, band: 'not enough data', reason: FIT_MSG.noRanges(f.dataYear), sections: [] };
  if (best.standing === 'below') {
    const first = best.secs.find((x) => x.position === 'below')!;
    return { ...base, band: 'reach', reason: FIT_MSG.below(first, f.dataYear), sections: best.secs };
  }
  if (best.standing === 'above')
    return { ...base, band: 'likely', reason: FIT_MSG.above(best.test, f.dataYear), sections: best.secs };
  return { ...base, band: 'target', reason: FIT_MSG.within(best.test, f.dataYear), sections: best.secs };
}

/** Counts of each band over a list. */
export function bandCounts(bands: FitBand[]): Record<FitBand, number> {
  const out = Object.fromEntries(FIT_BANDS.map((b) => [b, 0])) as Record<FitBand, number>;
  for (const b of bands) out[b] += 1;
  return out;
}

/** One college of a list as the balance check reads it. */
export interface BalanceItem {
  band: FitBand;
  /** Net price for the student's income band (Scorecard), null when not published or no band set */
  netPrice: number | null;
  /** The student is admitted there (or has enrolled): the strongest fact a list can hold */
  admitted?: boolean;
}

export interface ListBalance {
  counts: Record<FitBand, number>;
  /** Plain notes: no likely college, no financial safety, or what is missing to tell */
  notes: string[];
}

export const BALANCE_MSG = {
  noLikely: 'Your list has no likely college: add at least one where your scores are above the middle half.',
  noSafety: (budget: number) =>
    `No college on your list has a net price for your income band within your budget of $${formatNumberEnUs(budget)} a year: add a financial safety.`,
  setBudget: 'Set your income band and a yearly budget to check for a financial safety.',
} as const;

/**
 * The balance of a list: counts per band, a note when it has no likely college (unless the student is
 * already admitted somewhere), and a note when no
 * college is a financial safety (net price for the student's income band within their yearly budget).
 */
export function listBalance(
  items: BalanceItem[],
  money: { budget: number | null; incomeBandSet: boolean },
): ListBalance {
  const counts = bandCounts(items.map((i) => i.band));
  const notes: string[] = [];
  if (!items.length) return { counts, notes };
  // An admission settles what a likely college is for: a list holding one needs no likely college more.
  if (!counts.likely && !items.some((i) => i.admitted)) notes.push(BALANCE_MSG.noLikely);
  if (money.budget === null || !money.incomeBandSet) notes.push(BALANCE_MSG.setBudget);
  else if (!items.some((i) => i.netPrice !== null && i.netPrice <= money.budget!))
    notes.push(BALANCE_MSG.noSafety(money.budget));
  return { counts, notes };
}
export * from './apply-costs.ts';
