import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normaliseCollegeName, type Deadline } from '@ct/contracts';
import type { LocalFacts } from '@ct/providers';

/** The shared data folder next to the project, where the Common App grid lives in development. */
export const DEFAULT_DEADLINES_FILE = path.resolve(
  fileURLToPath(new URL('../../../', import.meta.url)),
  '../shared/data/common_app_deadlines_2025-26.json',
);

interface GridEntry {
  name: string;
  alias_of?: string;
  deadlines?: Record<string, string>;
  test_policy?: string;
  recs?: { teacher_evals?: number | null };
}
interface GridFile {
  _meta?: { source?: string; cycle?: string };
  colleges?: GridEntry[];
}

const ROUND_LABELS: Array<[string, string]> = [
  ['ED', 'Early Decision'],
  ['ED2', 'Early Decision II'],
  ['EA', 'Early Action'],
  ['EA2', 'Early Action II'],
  ['REA', 'Restrictive Early Action'],
  ['RD', 'Regular Decision'],
];

const TEST_POLICY: Record<string, string> = {
  required: 'Required',
  optional: 'Optional',
  flexible: 'Flexible: see the college’s testing policy',
  free: 'Not considered (test-free)',
  ignored: 'Not considered (test-free)',
};

const STATE_SUFFIX = /\s*\(([A-Z]{2})\)\s*$/;
const OTHER_SUFFIX = /\s*\([^)]*\)\s*$/;

/** Tolerant form for matching: normalised, no leading "the", "saint" as "st". */
function key(name: string): string {
  return normaliseCollegeName(name)
    .replace(/^the /, '')
    .replace(/\bsaint\b/g, 'st');
}

/**
 * Deadlines and requirements per college from the Common App requirements grid (a local, citable
 * source): used when the AI provider gives none, or is not configured.
 */
export class LocalDeadlines {
  private readonly byName = new Map<string, GridEntry[]>();
  readonly source: { url: string; title: string };

  constructor(file: GridFile) {
    const cycle = file._meta?.cycle ?? '';
    this.source = {
      url: file._meta?.source ?? 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: `Common App requirements grid${cycle ? ` ${cycle}` : ''}`,
    };
    for (const e of file.colleges ?? []) {
      if (e.alias_of || !e.name) continue;
      for (const k of new Set([key(e.name), key(e.name.replace(OTHER_SUFFIX, ''))])) {
        const list = this.byName.get(k) ?? [];
        list.push(e);
        this.byName.set(k, list);
      }
    }
  }

  /** Loads the grid; null (with the reason) when the file is missing or unreadable. */
  static load(file: string): { grid: LocalDeadlines | null; problem: string | null } {
    try {
      return {
        grid: new LocalDeadlines(JSON.parse(fs.readFileSync(file, 'utf8')) as GridFile),
        problem: null,
      };
    } catch (err) {
      return { grid: null, problem: err instanceof Error ? err.message : String(err) };
    }
  }

  get size(): number {
    return this.byName.size;
  }

  private entry(names: string[], city: string | null, state: string | null): GridEntry | null {
    const cityKey = city ? key(city) : null;
    for (const n of names) {
      const k = key(n);
      // "University of Michigan-Ann Arbor" is "University of Michigan" at Ann Arbor; "-Main Campus" likewise.
      const variants = [k, k.replace(/ main campus$/, '')];
      if (cityKey && k.endsWith(` ${cityKey}`)) variants.push(k.slice(0, -cityKey.length - 1));
      for (const v of variants) {
        const list = this.byName.get(v);
        if (!list) continue;
        // "Anderson University (IN)" and "(SC)": the state decides; an unqualified entry needs no state.
        const exact = list.find((e) => {
          const m = STATE_SUFFIX.exec(e.name);
          return m ? m[1] === state : true;
        });
        if (exact) return exact;
      }
    }
    return null;
  }

  /** What the grid says about a college (by official name, then aliases), or null. */
  find(name: string, aliases: string[], city: string | null, state: string | null): LocalFacts | null {
    const e = this.entry([name, ...aliases], city, state);
    if (!e) return null;
    const deadlines: Deadline[] = [];
    for (const [round, label] of ROUND_LABELS) {
      const v = e.deadlines?.[round];
      if (!v) continue;
      if (v === 'rolling') deadlines.push({ type: `${label} (rolling)`, date: null });
      else if (/^\d{4}-\d{2}-\d{2}$/.test(v)) deadlines.push({ type: label, date: v });
    }
    const evals = e.recs?.teacher_evals;
    const requirements = {
      transcripts: null,
      SAT_ACT: e.test_policy ? (TEST_POLICY[e.test_policy] ?? e.test_policy) : null,
      teacherRecommendations:
        typeof evals === 'number'
          ? evals === 0
            ? 'Not required'
            : `${evals} teacher evaluation${evals === 1 ? '' : 's'} required`
          : null,
    };
    if (!deadlines.length && !requirements.SAT_ACT && !requirements.teacherRecommendations) return null;
    return { deadlines, requirements, source: this.source };
  }
}
