import { normaliseCollegeName } from '@ct/contracts/constants';
import { Agent, request, type Dispatcher } from 'undici';
import { ProviderError, httpError } from './errors.ts';
import {
  SCORECARD_API_FIELDS,
  governmentData,
  recordFromApi,
  splitAliases,
  type GovernmentData,
} from './scorecard-fields.ts';

export const DEFAULT_SCORECARD_API_URL = 'https://api.data.gov/ed/collegescorecard/v1';

export interface ScorecardClientOptions {
  /** Base URL, e.g. https://api.data.gov/ed/collegescorecard/v1 */
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /**
   * Asked before every call, and waited for: the provider's calls-per-minute limit, counted over every
   * worker (issue 45: calls, not job starts, so a job that needs no call spends none).
   */
  beforeCall?: (() => Promise<void>) | undefined;
}

interface SchoolsPage {
  metadata?: { total?: number };
  results?: Array<Record<string, unknown>>;
}

/** A school the search found, with how well it matches the name asked for. */
export interface ScorecardMatch {
  school: GovernmentData;
  /** Other schools in the answer that carry exactly the same official name (e.g. "Columbia College") */
  sameNameCount: number;
}

/** The College Scorecard API (api.data.gov): school search by name and lookup by id. */
export class ScorecardClient {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });

  constructor(private readonly opts: ScorecardClientOptions) {}

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    // destroy, not close: close waits for calls still in flight, and on shutdown their jobs were already
    // handed back to the queue.
    await this.agent.destroy();
  }

  private async schools(
    params: Record<string, string>,
    fields = SCORECARD_API_FIELDS,
  ): Promise<Array<Record<string, unknown>>> {
    await this.opts.beforeCall?.();
    const qs = new URLSearchParams({ ...params, fields, api_key: this.opts.apiKey });
    const timeout = this.opts.timeoutMs ?? 15_000;
    let res: Dispatcher.ResponseData;
    try {
      // undici's request, not fetch: a worker makes thousands of these, and fetch's streams cost more CPU.
      res = await request(`${this.opts.baseUrl.replace(/\/$/, '')}/schools?${qs}`, {
        headers: { accept: 'application/json' },
        dispatcher: this.agent,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(timeout),
      });
    } catch (err) {
      const e = err as { name?: string; code?: string };
      const timedOut =
        e.name === 'TimeoutError' ||
        e.name === 'AbortError' ||
        e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
        e.code === 'UND_ERR_BODY_TIMEOUT';
      throw new ProviderError(
        'scorecard',
        timedOut ? 'timeout' : 'unavailable',
        timedOut ? 'did not answer in time' : 'could not be reached',
      );
    }
    if (res.statusCode >= 400) {
      await res.body.dump().catch(() => {});
      throw httpError('scorecard', res.statusCode);
    }
    let body: SchoolsPage;
    try {
      body = (await res.body.json()) as SchoolsPage;
    } catch {
      throw new ProviderError('scorecard', 'malformed', 'answered with a body that is not valid JSON');
    }
    if (!body || !Array.isArray(body.results)) {
      throw new ProviderError('scorecard', 'malformed', 'answered without a list of results');
    }
    return body.results.filter((r) => r && typeof r === 'object');
  }

  /** One institution by its id (UNITID), or null. */
  async getSchool(id: number): Promise<GovernmentData | null> {
    const results = await this.schools({ id: String(id) });
    return results.map((r) => governmentData(recordFromApi(r))).find((s) => s?.scorecardId === id) ?? null;
  }

  /** The raw record of one institution with only the given fields (comma-separated), or null. */
  async getSchoolFields(id: number, fields: string): Promise<Record<string, unknown> | null> {
    return (await this.schools({ id: String(id) }, fields))[0] ?? null;
  }

  /**
   * The institution best matching a name as a student typed it: the official name or an alias exactly
   * (case- and punctuation-insensitive), else the closest name containing every word typed, main campuses
   * and larger schools first. Null when nothing matches well.
   */
  async findSchool(name: string): Promise<ScorecardMatch | null> {
    const toSchools = (results: Array<Record<string, unknown>>) =>
      results.map((r) => governmentData(recordFromApi(r))).filter((s): s is GovernmentData => !!s);
    const schools = toSchools(await this.schools({ 'school.name': name, per_page: '50' }));
    const typed = normaliseCollegeName(name);
    if (!schools.some((s) => normaliseCollegeName(s.name) === typed)) {
      // "MIT" is an alias, and also the start of "Mitchell College": look at aliases before settling.
      const seen = new Set(schools.map((s) => s.scorecardId));
      for (const s of toSchools(await this.schools({ 'school.alias': name, per_page: '50' }))) {
        if (!seen.has(s.scorecardId)) schools.push(s);
      }
    }
    return pickBestMatch(name, schools);
  }
}

function tokens(s: string): string[] {
  return normaliseCollegeName(s).split(' ').filter(Boolean);
}

/** How well a school matches the typed name: 0 is no match; ties go to main campuses, then larger schools. */
export function matchScore(typed: string, school: GovernmentData): number {
  const q = normaliseCollegeName(typed);
  if (!q) return 0;
  if (normaliseCollegeName(school.name) === q) return 100;
  if (school.aliases.some((a) => normaliseCollegeName(a) === q)) return 90;
  const qt = tokens(typed);
  // Every typed word is a word of the name (50) or starts one (40). How much of the name was typed does
  // not count: "University of Michigan" means Ann Arbor (main campus, largest), not the shortest name.
  const words = (candidate: string) => {
    const nt = tokens(candidate);
    if (qt.every((t) => nt.includes(t))) return 50;
    return qt.every((t) => nt.includes(t) || (t.length >= 3 && nt.some((w) => w.startsWith(t)))) ? 40 : 0;
  };
  return Math.max(words(school.name), ...school.aliases.map(words), 0);
}

/** Picks the best school for a typed name among search results (see ScorecardClient.findSchool). */
export function pickBestMatch(typed: string, schools: GovernmentData[]): ScorecardMatch | null {
  let best: { s: GovernmentData; score: number } | null = null;
  for (const s of schools) {
    const score = matchScore(typed, s);
    if (score <= 0) continue;
    const rank = (x: { s: GovernmentData; score: number }) => [
      x.score,
      x.s.mainCampus ? 1 : 0,
      x.s.demographics.schoolSize ?? -1,
      -x.s.scorecardId,
    ];
    if (!best || compare(rank({ s, score }), rank(best)) > 0) best = { s, score };
  }
  if (!best) return null;
  const n = normaliseCollegeName(best.s.name);
  const sameNameCount = schools.filter((s) => s !== best.s && normaliseCollegeName(s.name) === n).length;
  return { school: best.s, sameNameCount };
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

export { splitAliases };
