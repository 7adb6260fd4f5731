/**
 * The order of sources for every fact that has more than one (issue 44, ADR 0102), in one place:
 *
 * 1. The official data the product ships (the College Scorecard snapshot, the Common App requirements
 *    grid) for what it states.
 * 2. A newer official refresh (an operator's import, a newer grid) over an older one: `mergeGovernment`
 *    and the snapshot load (which skips a snapshot older than an import) apply it to the figures.
 * 3. An AI answer, read on a page of the college's own domain and cited by that very answer
 *    (`screenAnswer`), only for what the official data does not state, or for a newer cycle's date of a
 *    plan the official data already names.
 *
 * An AI answer that contradicts an official fact (another plan type, a binding plan where the grid has
 * none, a date of this cycle that differs, another fee or test policy) never replaces it: it is held for
 * an admin's review with both values and their sources, as held facts are (ADR 0070).
 */
import { PLAN_TYPE_MEANINGS, planTypeOf, samePlanType, type PlanType } from '@ct/contracts/season';
import type { CollegeInfo, Deadline, Source } from '@ct/contracts';
import type { HeldFact } from './trust.ts';

/** Where a fact comes from, best first. */
export const SOURCE_ORDER = ['official', 'ai-answer'] as const;
export type SourceRank = (typeof SOURCE_ORDER)[number];

const OFFICIAL_HOSTS = /(^|\.)(commonapp\.org|ed\.gov)$/i;
const OFFICIAL_TITLES = /^(Common App requirements grid|College Scorecard)/;

/** True for a source of official data (the Common App grid, the College Scorecard), false for a page an AI read. */
export function isOfficialSource(s: Pick<Source, 'url' | 'title'> | undefined): boolean {
  if (!s) return false;
  if (s.title && OFFICIAL_TITLES.test(s.title)) return true;
  try {
    return OFFICIAL_HOSTS.test(new URL(s.url).hostname);
  } catch {
    return false;
  }
}

export const rankOf = (s: Pick<Source, 'url' | 'title'> | undefined): SourceRank =>
  isOfficialSource(s) ? 'official' : 'ai-answer';

/** A source named for an admin: its title and address. */
const named = (s: Pick<Source, 'url' | 'title'>) => (s.title ? `${s.title} (${s.url})` : s.url);

// ---- deadlines ----

/** One deadline with where it comes from. */
export interface SourcedDeadline {
  deadline: Deadline;
  source: Source;
}

/** The words a deadline is shown with: its plan type's, when it names one; else its own. */
export function deadlineWords(type: string): string {
  const t = planTypeOf(type);
  if (!t) return type;
  // The grid's "Regular Decision (rolling)" says the plan has no date: the plan's words, and that.
  return /\(rolling\)/i.test(type) && t !== 'rolling'
    ? `${PLAN_TYPE_MEANINGS[t].label} (rolling)`
    : PLAN_TYPE_MEANINGS[t].label;
}

/** An official date that a newer cycle's date may replace: last cycle's, or derived from a yearly rule. */
const replaceable = (d: Deadline, cycleStart: string) => !!d.note || (d.date !== null && d.date < cycleStart);

/** The plan types one official deadline stands for (a dateless plan is also rolling admission). */
function typesOf(d: Deadline): PlanType[] {
  const t = planTypeOf(d.type);
  if (!t) return [];
  return d.date === null && t !== 'rolling' ? [t, 'rolling'] : [t];
}

export interface OrderedDeadlines {
  deadlines: SourcedDeadline[];
  /** The AI answer's deadlines that contradict the official ones, as it gave them */
  contradicting: Deadline[];
}

/**
 * The deadlines a college shows, official first. With no official deadline, the answer's, each with its
 * plan type's words. With official ones: an answer's date of a plan the official data names replaces an
 * official date only when that one is last cycle's or derived (a newer cycle's date, with the official
 * words); a plan the official data does not name (Early Decision where the grid has Restrictive Early
 * Action), or another date of this cycle, contradicts it. An answer's date of no plan (a financial aid
 * date) is added. `cycleStart` is the first day of the admission cycle under way (YYYY-MM-DD).
 */
export function orderDeadlines(
  official: readonly SourcedDeadline[],
  answer: readonly SourcedDeadline[],
  cycleStart: string,
): OrderedDeadlines {
  const words = (x: SourcedDeadline): SourcedDeadline => ({
    ...x,
    deadline: { ...x.deadline, type: deadlineWords(x.deadline.type) },
  });
  if (!official.length) return { deadlines: answer.map(words), contradicting: [] };
  const out = official.map((x) => ({ ...x }));
  const contradicting: Deadline[] = [];
  const others: SourcedDeadline[] = [];
  const sameWords = (x: string, y: string) => x.trim().toLowerCase() === y.trim().toLowerCase();
  for (const a of answer) {
    const t = planTypeOf(a.deadline.type);
    // A date of no plan (the filing period, a financial aid date) matches the official one of its words.
    const i = t
      ? out.findIndex((o) => typesOf(o.deadline).some((ot) => samePlanType(ot, t)))
      : out.findIndex((o) => sameWords(o.deadline.type, a.deadline.type));
    const o = out[i];
    if (!o) {
      if (t) contradicting.push(a.deadline);
      else others.push(a);
      continue;
    }
    if (o.deadline.date === a.deadline.date) continue;
    const newer =
      a.deadline.date !== null &&
      o.deadline.date !== null &&
      a.deadline.date > o.deadline.date &&
      a.deadline.date >= cycleStart &&
      replaceable(o.deadline, cycleStart);
    if (newer) out[i] = { deadline: { type: o.deadline.type, date: a.deadline.date }, source: a.source };
    else contradicting.push(a.deadline);
  }
  return { deadlines: [...out, ...others], contradicting };
}

/** The deadlines of a document, each with its own source (`info.deadlines.<i>`) or the section's. */
export function sourcedDeadlines(
  deadlines: readonly Deadline[],
  sources: Readonly<Record<string, Source>>,
): SourcedDeadline[] {
  const section = sources['info.deadlines'];
  return deadlines.flatMap((deadline, i) => {
    const source = sources[`info.deadlines.${i}`] ?? section;
    return source ? [{ deadline, source }] : [];
  });
}

/**
 * Writes deadlines into `sources`: the section's source is the official one when any deadline is
 * official (else the first's), and a deadline from another source gets its own (`info.deadlines.<i>`).
 */
export function writeDeadlines(
  list: readonly SourcedDeadline[],
  sources: Record<string, Source>,
): Deadline[] {
  for (const k of Object.keys(sources)) if (k.startsWith('info.deadlines.')) delete sources[k];
  delete sources['info.deadlines'];
  const section = list.find((x) => isOfficialSource(x.source))?.source ?? list[0]?.source;
  if (!section) return [];
  sources['info.deadlines'] = section;
  list.forEach((x, i) => {
    if (x.source.url !== section.url || x.source.gatheredAt !== section.gatheredAt)
      sources[`info.deadlines.${i}`] = x.source;
  });
  return list.map((x) => x.deadline);
}

// ---- requirements ----

type Requirements = CollegeInfo['requirements'];
/** The requirement fields an AI answer may state. */
export const ANSWER_REQUIREMENTS = [
  'transcripts',
  'SAT_ACT',
  'teacherRecommendations',
  'applicationFee',
] as const;
type AnswerField = (typeof ANSWER_REQUIREMENTS)[number];

/** The test policy words name: required, optional or test-free; null when they name none. */
export function testPolicyOfText(text: string | null | undefined): 'required' | 'optional' | 'free' | null {
  if (!text) return null;
  if (/test[- ]?(free|blind)|not considered|does not (consider|accept)|will not consider/i.test(text))
    return 'free';
  if (/optional|not required|flexible|recommended/i.test(text)) return 'optional';
  if (/required/i.test(text)) return 'required';
  return null;
}

const GRID_POLICY: Record<string, 'required' | 'optional' | 'free'> = {
  required: 'required',
  optional: 'optional',
  flexible: 'optional',
  free: 'free',
  ignored: 'free',
};

/** The fee in dollars words state ("$85", "No application fee"); null when they state none. */
export function feeOfText(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = /\$\s?(\d{1,4})(?:\.00)?\b/.exec(text);
  if (m) return Number(m[1]);
  if (/\bno (application )?fee\b|\bfree\b|\bwaived for all\b/i.test(text)) return 0;
  return null;
}

/** True when the answer's words for a field contradict the official value (only where meaning compares). */
function contradicts(field: AnswerField, said: string, official: Requirements): boolean {
  if (field === 'SAT_ACT') {
    const theirs = testPolicyOfText(said);
    const ours = official.testPolicy ? GRID_POLICY[official.testPolicy] : testPolicyOfText(official.SAT_ACT);
    return !!theirs && !!ours && theirs !== ours;
  }
  if (field === 'applicationFee') {
    const theirs = feeOfText(said);
    const ours =
      typeof official.applicationFeeUsd === 'number'
        ? official.applicationFeeUsd
        : feeOfText(official.applicationFee);
    return theirs !== null && ours !== null && theirs !== ours;
  }
  return false;
}

export interface OrderedRequirements {
  requirements: Requirements;
  /** The fields the answer filled (each takes the answer's page as its own source) */
  answerFields: AnswerField[];
  /** The answer's fields that contradict the official ones, as it gave them */
  contradicting: Partial<Record<AnswerField, string>>;
}

/**
 * The requirements a college shows, official first: each field the official data states stays (an
 * answer's fee or test policy that differs contradicts it); the answer fills only the fields it lacks.
 */
export function orderRequirements(
  official: Requirements,
  answer: Partial<Requirements>,
): OrderedRequirements {
  const requirements: Requirements = { ...official };
  const answerFields: AnswerField[] = [];
  const contradicting: Partial<Record<AnswerField, string>> = {};
  for (const field of ANSWER_REQUIREMENTS) {
    const said = answer[field];
    if (typeof said !== 'string' || !said.trim()) continue;
    const stated = official[field];
    const officialStates =
      (typeof stated === 'string' && !!stated.trim()) ||
      (field === 'SAT_ACT' && !!official.testPolicy) ||
      (field === 'applicationFee' && typeof official.applicationFeeUsd === 'number');
    if (officialStates) {
      if (contradicts(field, said, official)) contradicting[field] = said;
      continue;
    }
    requirements[field] = said;
    answerFields.push(field);
  }
  return { requirements, answerFields, contradicting };
}

// ---- held for review ----

/** The line a shown deadline reads as, for the admin's review; a date an earlier answer gave names its page. */
const deadlineLine = ({ deadline: d, source }: SourcedDeadline) =>
  `${d.type}: ${d.date ?? 'rolling'}${isOfficialSource(source) ? '' : ` (from ${source.url})`}`;

/**
 * The answer's deadlines that contradict official ones, held for an admin's review: its value and page,
 * and in the reason the official value and its source.
 */
export function heldDeadlines(
  contradicting: readonly Deadline[],
  answerSource: Pick<Source, 'url'> | null,
  official: readonly SourcedDeadline[],
): HeldFact | null {
  if (!contradicting.length) return null;
  const src = official.find((x) => isOfficialSource(x.source))?.source ?? official[0]?.source;
  return {
    kind: 'deadlines',
    value: contradicting.map((d) => ({ type: d.type, date: d.date })),
    sourceUrl: answerSource?.url ?? null,
    reason:
      `It contradicts the official deadlines, which outrank an AI answer: ` +
      `${official.map(deadlineLine).join('; ')}` +
      `${src ? ` (source: ${named(src)})` : ''}.`,
  };
}

/** The answer's requirements that contradict official ones, held for review with the official values. */
export function heldRequirements(
  contradicting: Partial<Record<AnswerField, string>>,
  answerSource: Pick<Source, 'url'> | null,
  official: Requirements,
  officialSource: Pick<Source, 'url' | 'title'> | undefined,
): HeldFact | null {
  const fields = Object.keys(contradicting) as AnswerField[];
  if (!fields.length) return null;
  const officialLine = (f: AnswerField) =>
    `${f}: ${
      f === 'SAT_ACT'
        ? (official.SAT_ACT ?? official.testPolicy ?? '')
        : f === 'applicationFee'
          ? (official.applicationFee ??
            (typeof official.applicationFeeUsd === 'number' ? `$${official.applicationFeeUsd}` : ''))
          : (official[f] ?? '')
    }`;
  return {
    kind: 'requirements',
    value: contradicting,
    sourceUrl: answerSource?.url ?? null,
    reason:
      `It contradicts the official requirements, which outrank an AI answer: ` +
      `${fields.map(officialLine).join('; ')}${officialSource ? ` (source: ${named(officialSource)})` : ''}.`,
  };
}
