/**
 * The names part of the data audit (issue 25): through the API, as a student types, is every shipped
 * institution reachable by its display name, do the first characters of a name list it in the
 * suggestions, and does every well-known short name (services/colleges/data/short-names.json) find its
 * college and put it first? Returns figures and failures; `npm run data:names` prints them, and the data
 * audit (`npm run data:audit`) can join them.
 */

/** GET through the API as a signed-in admin (the admin listing gives every stored college). */
export type NamesApi = <T>(
  path: string,
  query: Record<string, string>,
) => Promise<{ status: number; body: T }>;

export interface ShortNameEntry {
  name: string;
  unitid: number;
  source: string;
}

export interface NamesReport {
  /** Shipped institutions (colleges with a College Scorecard id) checked */
  institutions: number;
  /** Institutions their display name does not find (another one, or nothing) */
  unreachable: Array<{ unitid: number; name: string; found: string | null }>;
  /** Random sample (fixed seed): the first 6 and 10 characters list the college among the suggestions */
  sample: number;
  hitRate6: number;
  hitRate10: number;
  misses6: string[];
  misses10: string[];
  /**
   * The best any list of 10 suggestions can do for a uniformly random institution, from the data: a name
   * whose first characters more than 10 names share can only be listed for some of them.
   */
  ceiling6: number;
  ceiling10: number;
  /** Misses whose first characters at most 10 names share: each one is a fault of the suggestions */
  avoidableMisses6: string[];
  avoidableMisses10: string[];
  /** Short names: each must find its college, and (3+ characters) suggest it first */
  shortNames: number;
  shortNameHits: number;
  shortNameMisses: Array<{
    name: string;
    expected: string;
    found: string | null;
    firstSuggestion: string | null;
  }>;
}

interface Listed {
  name: string;
  data?: { scorecardId: number | null };
}

/** A small seeded generator (mulberry32): the same seed gives the same sample on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` distinct items of a list, chosen with a seeded generator. */
export function sampleOf<T>(list: readonly T[], n: number, seed: number): T[] {
  const next = random(seed);
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/** Runs `fn` over `items`, `width` at a time. */
async function eachLimited<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>) {
  let i = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (i < items.length) await fn(items[i++]!);
    }),
  );
}

export async function auditNames(
  api: NamesApi,
  opts: { shortNames: readonly ShortNameEntry[]; seed?: number; sample?: number; concurrency?: number },
): Promise<NamesReport> {
  const colleges: Array<{ name: string; unitid: number }> = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api<{ total: number; colleges: Listed[] }>('/api/admin/colleges', {
      full: 'true',
      limit: '200',
      offset: String(offset),
    });
    if (page.status !== 200) throw new Error(`the admin listing answered ${page.status}`);
    for (const c of page.body.colleges) {
      const id = c.data?.scorecardId;
      if (id !== null && id !== undefined) colleges.push({ name: c.name, unitid: id });
    }
    if (offset + 200 >= page.body.total) break;
  }
  const width = opts.concurrency ?? 8;
  const search = async (name: string) => {
    const r = await api<{ data?: { name: string; scorecardId: number | null } }>('/api/search-college', {
      name,
    });
    return r.status === 200 && r.body.data ? r.body.data : null;
  };
  const suggest = async (query: string) =>
    (await api<{ suggestions?: string[] }>('/api/get-college-suggestions', { query })).body.suggestions ?? [];

  const unreachable: NamesReport['unreachable'] = [];
  await eachLimited(colleges, width, async (c) => {
    const found = await search(c.name);
    if (found?.scorecardId !== c.unitid) unreachable.push({ ...c, found: found?.name ?? null });
  });

  const sample = sampleOf(colleges, Math.min(opts.sample ?? 200, colleges.length), opts.seed ?? 20261124);
  const misses6: string[] = [];
  const misses10: string[] = [];
  await eachLimited(sample, width, async (c) => {
    if (!(await suggest(c.name.slice(0, 6))).includes(c.name)) misses6.push(c.name);
    if (!(await suggest(c.name.slice(0, 10))).includes(c.name)) misses10.push(c.name);
  });

  const byId = new Map(colleges.map((c) => [c.unitid, c.name]));
  const shortNameMisses: NamesReport['shortNameMisses'] = [];
  for (const s of opts.shortNames) {
    const expected = byId.get(s.unitid) ?? `UNITID ${s.unitid} (not stored)`;
    const found = await search(s.name);
    const first = s.name.length >= 3 ? ((await suggest(s.name))[0] ?? null) : expected;
    if (found?.scorecardId !== s.unitid || first !== expected) {
      shortNameMisses.push({ name: s.name, expected, found: found?.name ?? null, firstSuggestion: first });
    }
  }
  // How many display names share each beginning (as typed: case, spaces and punctuation ignored).
  const key = (name: string, n: number) =>
    name
      .slice(0, n)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const shared = (n: number) => {
    const m = new Map<string, number>();
    for (const c of colleges) m.set(key(c.name, n), (m.get(key(c.name, n)) ?? 0) + 1);
    return m;
  };
  const [shared6, shared10] = [shared(6), shared(10)];
  const ceiling = (m: Map<string, number>, n: number) =>
    colleges.reduce((sum, c) => sum + Math.min(1, 10 / m.get(key(c.name, n))!), 0) / (colleges.length || 1);
  const rate = (misses: number) => (sample.length ? (sample.length - misses) / sample.length : 1);
  return {
    institutions: colleges.length,
    unreachable: unreachable.sort((a, b) => a.unitid - b.unitid),
    sample: sample.length,
    hitRate6: rate(misses6.length),
    hitRate10: rate(misses10.length),
    misses6: misses6.sort(),
    misses10: misses10.sort(),
    ceiling6: ceiling(shared6, 6),
    ceiling10: ceiling(shared10, 10),
    avoidableMisses6: misses6.filter((m) => shared6.get(key(m, 6))! <= 10),
    avoidableMisses10: misses10.filter((m) => shared10.get(key(m, 10))! <= 10),
    shortNames: opts.shortNames.length,
    shortNameHits: opts.shortNames.length - shortNameMisses.length,
    shortNameMisses,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Prints a names report; returns how many failures it holds (unreachable, short-name and avoidable misses). */
export function printNames(r: NamesReport, log: (line: string) => void = console.log): number {
  log(`Institutions checked: ${r.institutions}`);
  log(`Unreachable by display name: ${r.unreachable.length}`);
  for (const u of r.unreachable) log(`  ${u.unitid} ${u.name} -> ${u.found ?? 'nothing'}`);
  log(
    `Suggestions, first 6 characters: ${pct(r.hitRate6)} of ${r.sample} (the most 10 suggestions can reach: ${pct(r.ceiling6)})`,
  );
  log(
    `Suggestions, first 10 characters: ${pct(r.hitRate10)} of ${r.sample} (the most 10 suggestions can reach: ${pct(r.ceiling10)})`,
  );
  for (const m of [...r.avoidableMisses6, ...r.avoidableMisses10]) log(`  avoidable miss: ${m}`);
  log(`Short names: ${r.shortNameHits} of ${r.shortNames}`);
  for (const m of r.shortNameMisses)
    log(`  ${m.name}: expected ${m.expected}, found ${m.found ?? 'nothing'}`);
  return (
    r.unreachable.length + r.shortNameMisses.length + r.avoidableMisses6.length + r.avoidableMisses10.length
  );
}
