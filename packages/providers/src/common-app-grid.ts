import fs from 'node:fs';
import { normaliseCollegeName, type CollegeInfo, type Deadline } from '@ct/contracts';
import { PLAN_TYPE_MEANINGS } from '@ct/contracts/season';
import { comingCycles, type LocalFacts } from './college-document.ts';

/** Application plans of the grid, in the order a student meets them. */
export const GRID_ROUNDS = ['ED', 'ED2', 'EA', 'EA2', 'REA', 'RD'] as const;
export type GridRound = (typeof GRID_ROUNDS)[number];

/** One college's facts from the Common App requirements grid, as shipped (the grid's own field names). */
export interface GridFacts {
  /** The name the grid uses */
  name: string;
  /** Application system: common_app, uc, csu, applytexas, institutional */
  system: string | null;
  /** Deadline per plan: YYYY-MM-DD of the grid's cycle, or "rolling" */
  deadlines: Partial<Record<GridRound, string>>;
  /** Dates that recur every cycle, as MM-DD: a plan, or filing_open / filing_close */
  annual_rules?: Record<string, string>;
  /** Application fee in U.S. dollars */
  fees: { us: number | null; intl: number | null } | null;
  /** Whether the Common App personal essay is required */
  personal_essay: boolean | null;
  /** The college's own essays in place of the Common App's (UC: 4 Personal Insight Questions of 8) */
  own_essays?: { name: string; required: number; of: number; words: number | null };
  /** "Yes" when the college asks its own writing questions */
  writing_supplement: string | null;
  /** "Yes" when self-reported courses and grades are required */
  courses_and_grades: string | null;
  /** Portfolio code of the grid (SR: some programs require one, COL: the college requires one) */
  portfolio: string | null;
  /** required, optional, flexible, free (test-free) */
  test_policy: string | null;
  tests_used: string | null;
  english_tests: string | null;
  recs: {
    teacher_evals: number | null;
    other_evals: number | null;
    midyear_report: boolean | null;
    counselor_rec: boolean | null;
  } | null;
  /** "rolling" when the college admits on a rolling basis */
  admission_type: string | null;
}

export interface GridFile {
  _meta: {
    cycle?: string;
    source?: string;
    source_updated?: string;
    notes?: string;
    /** Where the grid was taken from */
    origin?: { repository: string; path: string; commit: string; license: string };
    /** Licence notice of the grid's repository */
    notice?: string;
    [key: string]: unknown;
  };
  /** Facts by Scorecard UNITID */
  colleges: Record<string, GridFacts>;
}

/** The grid's plans are plan types of the closed set: their words are the set's (issue 44). */
const ROUND_LABELS = Object.fromEntries(GRID_ROUNDS.map((r) => [r, PLAN_TYPE_MEANINGS[r].label])) as Record<
  GridRound,
  string
>;

const RULE_LABELS: Record<string, string> = {
  ...ROUND_LABELS,
  filing_open: 'Application filing opens',
  filing_close: 'Application filing deadline',
};

const TEST_POLICY: Record<string, string> = {
  required: 'Required',
  optional: 'Optional',
  flexible: 'Flexible: see the college’s testing policy',
  free: 'Not considered (test-free)',
  ignored: 'Not considered (test-free)',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "Dec 1" for "12-01". */
const monthDay = (mmdd: string) => `${MONTHS[Number(mmdd.slice(0, 2)) - 1]} ${Number(mmdd.slice(3, 5))}`;
const cycleLabel = (start: number) => `${start}-${String((start + 1) % 100).padStart(2, '0')}`;

/** The note on a date placed in this cycle by a yearly rule of the grid. */
export const derivedNote = (mmdd: string) =>
  `Derived from the grid's yearly date (${monthDay(mmdd)} every cycle); this cycle's date is not yet published`;
/** The note on last cycle's date, shown because this cycle's is not yet published. */
export const lastCycleNote = (cycle: string) => `${cycle} date; this cycle's dates not yet published`;

/** A recurring MM-DD placed in the cycle under way (August to July). */
function inCurrentCycle(mmdd: string, startYear: number): string | null {
  const m = /^(\d{2})-(\d{2})$/.exec(mmdd);
  if (!m) return null;
  return `${Number(m[1]) >= 8 ? startYear : startYear + 1}-${m[1]}-${m[2]}`;
}

const money = (n: number) => (n === 0 ? 'no fee' : `$${n}`);
const listed = (v: string | null | undefined) =>
  v && !/^(none|see website)$/i.test(v.trim()) ? v.trim() : null;

/**
 * What a college's grid entry means for a student on `now`: its deadlines and its requirements in words.
 * Dates of the coming two admission cycles are given as they are; dates that recur every year are placed
 * in the cycle under way, each noted as derived and from which yearly date; the dated plans of the cycle
 * just passed are kept, noted as that cycle's (this cycle's not yet published), so a student knows the
 * plans exist. Older dates are dropped. Null when the entry says nothing usable.
 */
export function gridFacts(
  e: GridFacts,
  source: LocalFacts['source'],
  now: Date = new Date(),
): LocalFacts | null {
  const window = comingCycles(now);
  const startYear = Number(window.from.slice(0, 4));
  const lastFrom = `${startYear - 1}-08-01`;
  const deadlines: Deadline[] = [];
  const lastCycle: Deadline[] = [];
  for (const round of GRID_ROUNDS) {
    const v = e.deadlines[round];
    if (!v) continue;
    if (v === 'rolling') deadlines.push({ type: `${ROUND_LABELS[round]} (rolling)`, date: null });
    else if (/^\d{4}-\d{2}-\d{2}$/.test(v) && v >= window.from && v <= window.to)
      deadlines.push({ type: ROUND_LABELS[round], date: v });
    else if (/^\d{4}-\d{2}-\d{2}$/.test(v) && v >= lastFrom && v < window.from)
      lastCycle.push({ type: ROUND_LABELS[round], date: v, note: lastCycleNote(cycleLabel(startYear - 1)) });
  }
  for (const [rule, mmdd] of Object.entries(e.annual_rules ?? {})) {
    const date = inCurrentCycle(mmdd, startYear);
    const label = RULE_LABELS[rule];
    if (date && label && !deadlines.some((d) => d.type === label))
      deadlines.push({ type: label, date, note: derivedNote(mmdd) });
  }
  for (const d of lastCycle) if (!deadlines.some((x) => x.type === d.type)) deadlines.push(d);

  const policy = e.test_policy ? (TEST_POLICY[e.test_policy] ?? e.test_policy) : null;
  const tests = listed(e.tests_used);
  const evals = e.recs?.teacher_evals;
  const others = e.recs?.other_evals;
  let teachers: string | null = null;
  if (typeof evals === 'number') {
    teachers = evals === 0 ? 'Not required' : `${evals} teacher evaluation${evals === 1 ? '' : 's'} required`;
    if (typeof others === 'number' && others > 0)
      teachers += `, and ${others} other evaluation${others === 1 ? '' : 's'}`;
  }
  let counselor: string | null = null;
  if (e.recs?.counselor_rec === true)
    counselor = e.recs.midyear_report ? 'Required, with the midyear report' : 'Required';
  else if (e.recs?.midyear_report === true) counselor = 'Midyear report required';
  else if (e.recs?.counselor_rec === false) counselor = 'Not required';
  const fee = e.fees?.us ?? null;
  const intl = e.fees?.intl ?? null;
  const requirements: CollegeInfo['requirements'] = {
    transcripts: e.courses_and_grades === 'Yes' ? 'Self-reported courses and grades required' : null,
    SAT_ACT: policy ? (tests ? `${policy} (${tests})` : policy) : null,
    teacherRecommendations: teachers,
    ...(fee !== null
      ? {
          applicationFee:
            intl !== null && intl !== fee
              ? `${money(fee)} (international applicants: ${money(intl)})`
              : fee === 0
                ? 'No application fee'
                : money(fee),
        }
      : {}),
    ...(e.own_essays
      ? {
          personalEssay:
            `Required: ${e.own_essays.required} ${e.own_essays.name} (of ${e.own_essays.of}` +
            `${e.own_essays.words ? `, up to ${e.own_essays.words} words each` : ''})`,
        }
      : typeof e.personal_essay === 'boolean'
        ? { personalEssay: e.personal_essay ? 'Required' : 'Not required' }
        : {}),
    ...(e.writing_supplement === 'Yes' ? { writingSupplement: 'Required' } : {}),
    ...(counselor ? { counselorRecommendation: counselor } : {}),
    ...(e.test_policy ? { testPolicy: e.test_policy } : {}),
    ...(fee !== null ? { applicationFeeUsd: fee } : {}),
  };
  const hasRequirement = Object.values(requirements).some((v) => typeof v === 'string');
  if (!deadlines.length && !hasRequirement) return null;
  return { deadlines, requirements, source };
}

/** Tolerant name key: normalised, no leading "the", "saint" as "st". */
function key(name: string): string {
  return normaliseCollegeName(name)
    .replace(/^the /, '')
    .replace(/\bsaint\b/g, 'st');
}
const STATE_SUFFIX = /\s*\(([A-Z]{2})\)\s*$/;
const OTHER_SUFFIX = /\s*\([^)]*\)\s*$/;

/**
 * The Common App requirements grid as the product ships it (packages/providers/data/common-app-grid.json,
 * matched to Scorecard UNITIDs by scripts/data/match-common-app.ts), or an operator's file of that shape.
 */
export class CommonAppGrid {
  readonly source: LocalFacts['source'];
  readonly cycle: string | null;
  private readonly byId: Map<number, GridFacts>;
  private readonly byName = new Map<string, GridFacts[]>();

  constructor(readonly file: GridFile) {
    this.cycle = file._meta.cycle ?? null;
    this.source = {
      url: file._meta.source ?? 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: `Common App requirements grid${this.cycle ? ` ${this.cycle}` : ''}`,
    };
    this.byId = new Map(Object.entries(file.colleges).map(([id, f]) => [Number(id), f]));
    for (const f of new Set(this.byId.values())) {
      for (const k of new Set([key(f.name), key(f.name.replace(OTHER_SUFFIX, ''))])) {
        const list = this.byName.get(k) ?? [];
        list.push(f);
        this.byName.set(k, list);
      }
    }
  }

  /** The grid shipped with the product. */
  static async shipped(): Promise<CommonAppGrid> {
    const mod = (await import('../data/common-app-grid.json', { with: { type: 'json' } })) as {
      default: GridFile;
    };
    return new CommonAppGrid(mod.default);
  }

  /** A grid file of the shipped shape (an operator's newer match). */
  static fromFile(file: string): CommonAppGrid {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<GridFile>;
    if (!data._meta || !data.colleges || typeof data.colleges !== 'object' || Array.isArray(data.colleges)) {
      throw new Error(
        `${file} is not a Common App grid file keyed by UNITID (see scripts/data/match-common-app.ts)`,
      );
    }
    return new CommonAppGrid(data as GridFile);
  }

  /** Institutions the grid has facts for. */
  get size(): number {
    return this.byId.size;
  }

  /** The entry of an institution by its Scorecard UNITID. */
  entry(scorecardId: number): GridFacts | null {
    return this.byId.get(scorecardId) ?? null;
  }

  /** The entry by name, for a college without a Scorecard id: its names, with the state telling twins apart. */
  entryByName(names: string[], city: string | null, state: string | null): GridFacts | null {
    const cityKey = city ? key(city) : null;
    for (const name of names) {
      const k = key(name);
      const variants = [k, k.replace(/ main campus$/, '')];
      if (cityKey && k.endsWith(` ${cityKey}`)) variants.push(k.slice(0, -cityKey.length - 1));
      for (const v of variants) {
        const hit = (this.byName.get(v) ?? []).find((e) => {
          const m = STATE_SUFFIX.exec(e.name);
          return m ? m[1] === state : true;
        });
        if (hit) return hit;
      }
    }
    return null;
  }

  /**
   * What the grid says about a college: by its Scorecard id when it has one (the reviewed match), else by
   * its names. Null when the grid does not list it.
   */
  find(
    name: string,
    aliases: string[],
    city: string | null,
    state: string | null,
    scorecardId?: number | null,
    now: Date = new Date(),
  ): LocalFacts | null {
    const e =
      scorecardId !== undefined && scorecardId !== null
        ? this.entry(scorecardId)
        : this.entryByName([name, ...aliases], city, state);
    return e ? gridFacts(e, this.source, now) : null;
  }
}
