import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { FakeServer, FIXTURES_DIR, type RecordedRequest } from './fake-server.ts';

/** 500 rows of the demo institution CSV, unchanged (ADMCON7 and OPENADMP appended): every institution a test names, and a sample. */
export const SCORECARD_CSV = path.join(FIXTURES_DIR, 'scorecard-institutions.csv');
/** The official data dictionary's API name and type of each column (and of the product's fields). */
export const SCORECARD_DICTIONARY_CSV = path.join(FIXTURES_DIR, 'scorecard-dictionary.csv');

type Row = Record<string, string>;
interface Element {
  api: string;
  type: string;
}

let cached: { rows: Row[]; elements: Map<string, Element> } | null = null;

/**
 * The official data dictionary's API name of every CSV column: root fields as is, `school.*`, and the
 * yearly categories under `latest.` — derived here independently of the product's own field table.
 */
function load(csvPath: string): { rows: Row[]; elements: Map<string, Element> } {
  if (cached && csvPath === SCORECARD_CSV) return cached;
  const dict = parse(fs.readFileSync(SCORECARD_DICTIONARY_CSV), {
    columns: true,
    skip_empty_lines: true,
  }) as Row[];
  const elements = new Map<string, Element>();
  for (const d of dict) {
    const v = d.variable_name;
    const cat = d.dev_category;
    const name = d.developer_friendly_name;
    if (!v || !name || elements.has(v)) continue;
    const api = cat === 'root' ? name : cat === 'school' ? `school.${name}` : `latest.${cat}.${name}`;
    elements.set(v, { api, type: d.api_data_type ?? 'string' });
  }
  const rows = parse(fs.readFileSync(csvPath), { columns: true, skip_empty_lines: true }) as Row[];
  const out = { rows, elements };
  if (csvPath === SCORECARD_CSV) cached = out;
  return out;
}

function typed(value: string | undefined, type: string): unknown {
  if (value === undefined || value === '') return null;
  if (type === 'integer' || type === 'float' || type === 'long') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return value;
}

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * The API's text search on autocomplete fields: every word typed starts a word of the field. An index of
 * the fields' words (sorted, for prefix ranges) keeps the fake fast enough for throughput benchmarks.
 */
class WordIndex {
  private readonly words: string[];
  private readonly rowsOf = new Map<string, number[]>();
  constructor(values: Array<string | undefined>) {
    values.forEach((v, row) => {
      for (const w of new Set(words(v ?? ''))) {
        const list = this.rowsOf.get(w);
        if (list) list.push(row);
        else this.rowsOf.set(w, [row]);
      }
    });
    this.words = [...this.rowsOf.keys()].sort();
  }
  /** Rows whose field has, for every query word, a word starting with it. */
  search(query: string): Set<number> {
    let result: Set<number> | null = null;
    for (const q of words(query)) {
      const rows = new Set<number>();
      let lo = 0;
      let hi = this.words.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.words[mid]! < q) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < this.words.length && this.words[i]!.startsWith(q); i++) {
        for (const r of this.rowsOf.get(this.words[i]!)!) if (!result || result.has(r)) rows.add(r);
      }
      result = rows;
      if (!rows.size) break;
    }
    return result ?? new Set();
  }
}

export interface ScorecardFake {
  /** Base URL to use as SCORECARD_API_URL */
  url: string;
  /** The only key the fake accepts */
  apiKey: string;
  server: FakeServer;
  /** The CSV rows the fake answers from, by UNITID */
  row(unitId: number): Record<string, string> | undefined;
  close(): Promise<void>;
}

/**
 * A local College Scorecard API (`GET /v1/schools`) answering from rows of the official institution CSV
 * (the test fixture, or another file of the same columns): `api_key` checked (403 otherwise), filters `id`, `school.name`, `school.alias`, the
 * `fields` list, `per_page` and `page`, flat dotted keys as the real API returns them.
 */
export async function startScorecardFake(
  opts: {
    csvPath?: string;
    apiKey?: string;
    /** Values of API fields the CSV has no column for (e.g. `latest.programs.cip_4_digit`), by UNITID */
    extraFields?: (unitId: number) => Record<string, unknown> | undefined;
  } = {},
): Promise<ScorecardFake> {
  const apiKey = opts.apiKey ?? 'test-scorecard-key';
  const { rows, elements } = load(opts.csvPath ?? SCORECARD_CSV);
  const byId = new Map(rows.map((r) => [Number(r.UNITID), r]));
  const rowOfId = new Map(rows.map((r, i) => [Number(r.UNITID), i]));
  const nameIndex = new WordIndex(rows.map((r) => r.INSTNM));
  const aliasIndex = new WordIndex(rows.map((r) => r.ALIAS));
  const apiToVariable = new Map(
    [...elements].filter(([v]) => v in (rows[0] ?? {})).map(([v, e]) => [e.api, v]),
  );

  const route = (req: RecordedRequest) => {
    if (req.method !== 'GET' || !req.path.endsWith('/schools')) {
      return { status: 404, body: { error: { code: 'NOT_FOUND', message: `No route ${req.path}` } } };
    }
    const q = req.query;
    if (q.get('api_key') !== apiKey) {
      return {
        status: 403,
        body: {
          error: {
            code: q.get('api_key') ? 'API_KEY_INVALID' : 'API_KEY_MISSING',
            message: 'An invalid api_key was supplied.',
          },
        },
      };
    }
    // Row numbers that pass every filter given, in file order
    let picked: number[] | null = null;
    const keep = (found: Set<number>) => {
      picked = picked ? picked.filter((i) => found.has(i)) : [...found].sort((a, b) => a - b);
    };
    const id = q.get('id');
    if (id) {
      const ids = new Set(id.split(',').map(Number));
      keep(new Set([...ids].flatMap((x) => rowOfId.get(x) ?? [])));
    }
    const name = q.get('school.name');
    if (name) keep(nameIndex.search(name));
    const alias = q.get('school.alias');
    if (alias) keep(aliasIndex.search(alias));
    const hits = picked ? (picked as number[]).map((i) => rows[i]!) : rows;
    const perPage = Math.min(100, Math.max(1, Number(q.get('per_page') ?? 20) || 20));
    const page = Math.max(0, Number(q.get('page') ?? 0) || 0);
    const requested = (q.get('fields') ?? '').split(',').filter(Boolean);
    const fields = requested.length ? requested : [...apiToVariable.keys()];
    const results = hits.slice(page * perPage, (page + 1) * perPage).map((r) => {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        const v = apiToVariable.get(f);
        out[f] = v
          ? typed(r[v], elements.get(v)?.type ?? 'string')
          : (opts.extraFields?.(Number(r.UNITID))?.[f] ?? null);
      }
      return out;
    });
    return { status: 200, body: { metadata: { page, total: hits.length, per_page: perPage }, results } };
  };

  const server = new FakeServer(route, '{"metadata": {"total": 1}, "results": [');
  const url = await server.listen('/v1');
  return { url, apiKey, server, row: (unitId) => byId.get(unitId), close: () => server.close() };
}
