// What students call, on the servers users run: `npm start` (embedded: PGlite in a temporary data folder,
// the in-process queue) and `npm run start:distributed` (every service its own process, a fresh Postgres
// database, Redis under a queue prefix of its own), each with its default logging. The load generator is
// a process of its own (bench/lib.ts), and a bare Fastify hello, also a process of its own, is measured in
// the same run as the reference. Real ID tokens of verified students from the Auth emulator go out as
// Bearer headers, spread over 200 students (each within the per-user rate limit).
//
// Figures per run: get-user-colleges (10 colleges each; req/s against bare), add-note, a checklist tick,
// suggestions at 10,000 colleges, cache-hit search, 1,000 concurrent add-college of one new name (exactly
// one job; the Scorecard and OpenAI fakes stand in for the providers so the job runs to the end).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  addCollege,
  addNote,
  getCollegeSuggestions,
  getIngestionStatus,
  getUserColleges,
  searchCollege,
  updateChecklist,
} from '@ct/contracts';
import {
  clearRedisPrefix,
  freshDatabase,
  startAuthEmulator,
  startOpenAiFake,
  startScorecardFake,
  TEST_REDIS_URL,
  uniquePrefix,
  type TestUser,
} from '@ct/testkit';
import { detail, failedFigure, figure, fmt, load, ms, type LoadRequest, type LoadResult } from './lib.ts';
import {
  api,
  createStudents,
  NEW_COLLEGE,
  seedCollegeCache,
  seedStudentLists,
  vacuumAnalyze,
  type CollegeCache,
} from './seed.ts';
import {
  postgresCpu,
  startBare,
  startDistributedRun,
  startEmbedded,
  startFloor,
  type BenchServer,
} from './servers.ts';

export const FIGURES = [
  'user-colleges',
  'add-note',
  'checklist-tick',
  'suggestions',
  'search',
  'add-college',
] as const;
type FigureName = (typeof FIGURES)[number];
type Mode = 'embedded' | 'distributed';

const STUDENTS = 200;
const COLLEGES_EACH = 10;
const NOTES_EACH = 30; // the per-student limit
const CACHED_COLLEGES = 10_000;
const CONCURRENT_ADDS = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = 2;
/**
 * Connections of the throughput figures; of suggestions (many students typing at once, not a flood); and
 * of search, whose target is the latency one student sees (as the earlier benchmark measured it).
 */
const THROUGHPUT_CONN = 50;
const LATENCY_CONN = 10;
const SEARCH_CONN = 1;
/** Embedded get-user-colleges: its req/s against the payload floor's (bare Fastify, the same bytes). */
const TARGET_PAYLOAD_RATIO = 0.6;
/** Embedded healthz: its req/s against bare Fastify hello's. */
const TARGET_HEALTHZ_RATIO = 0.5;
/** Distributed get-user-colleges: server CPU per request (all processes, Postgres) over the floor's. */
const TARGET_DISTRIBUTED_CPU_RATIO = 1.5;
/** Distributed get-user-colleges: p99 over the distributed floor's. */
const TARGET_P99_RATIO = 2;
/** Rounds of the interleaved throughput figure (bare, ours, bare, ours...). */
const ROUNDS = 3;
const BASE_PORT = Number(process.env.BENCH_PORT ?? 20100);
/** Ports from BENCH_PORT: embedded, bare, the distributed run's seven, the distributed floor's two. */
const PORTS = { embedded: BASE_PORT, bare: BASE_PORT + 1, distributed: BASE_PORT + 2, floor: BASE_PORT + 10 };

/** What students type: the first 3 to 12 characters of real names, some whole words, some typos. */
function suggestionQueries(names: string[], n: number): string[] {
  const out: string[] = [];
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < n; i++) {
    const name = names[Math.floor(rnd() * names.length)]!;
    const kind = i % 4;
    if (kind === 3) {
      const words = name.split(/\s+/).filter((w) => w.length > 3);
      out.push(words[Math.floor(rnd() * words.length)] ?? name.slice(0, 6));
    } else if (kind === 2) {
      const cut = name.slice(0, 10);
      const at = 2 + Math.floor(rnd() * (cut.length - 3));
      out.push(cut.slice(0, at) + cut.slice(at + 1)); // a dropped letter
    } else out.push(name.slice(0, 3 + Math.floor(rnd() * 10)));
  }
  return out;
}

const bearer = (s: TestUser) => ({ authorization: `Bearer ${s.idToken}` });
const json = { 'content-type': 'application/json' };
const get = (p: string, s: TestUser, query?: Record<string, string>): LoadRequest => ({
  method: 'GET',
  path: `/api${p}${query ? `?${new URLSearchParams(query)}` : ''}`,
  headers: bearer(s),
});
const post = (p: string, s: TestUser, body: unknown): LoadRequest => ({
  method: 'POST',
  path: `/api${p}`,
  headers: { ...bearer(s), ...json },
  body: JSON.stringify(body),
});

/** Server CPU per request (µs): what the req/s would follow on a machine of its own. */
const cpu = (r: LoadResult) => (r.cpuUsPerRequest === undefined ? 'n/a' : `${fmt(r.cpuUsPerRequest)} µs`);

const clean = (r: LoadResult) => r.errors === 0 && r.non2xx === 0;
const failures = (r: LoadResult) =>
  clean(r)
    ? ''
    : `, ${r.errors} errors, ${r.non2xx} non-2xx ${JSON.stringify(Object.fromEntries(Object.entries(r.statuses).filter(([s]) => !s.startsWith('2'))))}`;

interface Run {
  mode: Mode;
  server: BenchServer;
  students: TestUser[];
  lists: string[][];
  cache: CollegeCache;
  bare: BenchServer;
  /** Bare Fastify at the throughput connections, measured at the start of this run. */
  bare50: LoadResult;
  scorecardSearches: (name: string) => number;
  /** Distributed: the distributed floor on the same database (bench/floor-proxy.ts, floor-service.ts). */
  floor?: BenchServer;
}

/** The distributed run's CPU with the Postgres backends of its database counted in (as "postgres"). */
function withPostgresCpu(server: BenchServer, database: string): BenchServer {
  const pg = postgresCpu(database);
  return {
    ...server,
    cpuSeconds: () => server.cpuSeconds() + pg(),
    cpuParts: () => new Map([...server.cpuParts(), ['postgres', pg()]]),
  };
}

/** The server at the throughput connections for the run's length, after a warm-up (CPU by process too). */
const throughput = (r: Run, requests: LoadRequest[]) =>
  load({
    url: r.server.url,
    cpu: r.server.cpuSeconds,
    cpuParts: r.server.cpuParts,
    connections: THROUGHPUT_CONN,
    duration: SECONDS,
    warmup: WARMUP,
    requests,
  });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (x: number) => `${fmt(x * 100, 1)} %`;
const byProcess = (r: LoadResult) =>
  Object.entries(r.cpuUsByPart ?? {})
    .filter(([, us]) => us >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([k, us]) => `${k} ${fmt(us)}`)
    .join(', ');

/**
 * `get-user-colleges` against its floors, measured in the same run and interleaved round by round (three
 * rounds, plain autocannon at 50 connections, the load generator a process of its own), so all meet the
 * same machine; each figure is the median of the rounds' ratios.
 *
 * Embedded: bare Fastify's hello; the payload floor (bare Fastify answering one of our answers, the same
 * body and headers); ours; ours on `/api/healthz`. Targets: ours >= 60 % of the payload floor's req/s, and
 * healthz >= 50 % of hello's (the gateway's own work at most twice bare Fastify's).
 *
 * Distributed: the distributed floor (bench/floor-proxy.ts in front of bench/floor-service.ts: bare
 * Fastify, an undici keep-alive pool, the same SQL as a prepared statement on the same database and rows);
 * ours. Targets: the server CPU per request (every process and the database's Postgres backends) <= 1.5x
 * the floor's, and p99 <= 2x the floor's.
 */
async function userColleges(r: Run): Promise<void> {
  const requests = r.students.map((s) => get(getUserColleges.path, s));
  const opts = { connections: THROUGHPUT_CONN, duration: SECONDS, warmup: WARMUP, plain: true };
  const ours = () =>
    load({ url: r.server.url, cpu: r.server.cpuSeconds, cpuParts: r.server.cpuParts, requests, ...opts });
  const label = `${r.mode}: GET get-user-colleges (10 colleges, ${THROUGHPUT_CONN} conn.)`;
  if (r.mode === 'distributed') {
    const floor = r.floor!;
    const rounds: Array<{ floor: LoadResult; ours: LoadResult }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const f = await load({
        url: floor.url,
        cpu: floor.cpuSeconds,
        cpuParts: floor.cpuParts,
        requests,
        ...opts,
      });
      rounds.push({ floor: f, ours: await ours() });
    }
    const cpuRatio = median(
      rounds.map((x) => (x.ours.cpuUsPerRequest ?? Infinity) / (x.floor.cpuUsPerRequest ?? 0)),
    );
    const p99Ratio = median(rounds.map((x) => x.ours.p99 / x.floor.p99));
    const allClean = rounds.every((x) => clean(x.ours) && clean(x.floor));
    figure(`${label}: server CPU/request`, `${fmt(cpuRatio, 2)}x floor's (median)`, {
      bare: `floor ${fmt(median(rounds.map((x) => x.floor.cpuUsPerRequest ?? Infinity)))} µs, ours ${fmt(median(rounds.map((x) => x.ours.cpuUsPerRequest ?? Infinity)))} µs`,
      target: `<= ${TARGET_DISTRIBUTED_CPU_RATIO}x the distributed floor's, all 2xx`,
      met: cpuRatio <= TARGET_DISTRIBUTED_CPU_RATIO && allClean,
    });
    figure(`${label}: p99`, `${fmt(p99Ratio, 2)}x floor's (median)`, {
      bare: `floor ${ms(median(rounds.map((x) => x.floor.p99)))}, ours ${ms(median(rounds.map((x) => x.ours.p99)))}`,
      target: `<= ${TARGET_P99_RATIO}x the distributed floor's, all 2xx`,
      met: p99Ratio <= TARGET_P99_RATIO && allClean,
    });
    rounds.forEach(({ floor: f, ours: o }, i) => {
      detail(
        `round ${i + 1}: req/s ours (floor), CPU µs/request ours (floor)`,
        `${fmt(o.rps)} (${fmt(f.rps)}), ${cpu(o)} (${cpu(f)})${failures(o)}${failures(f)}`,
      );
      detail(`  p50 / p99 ours (floor)`, `${ms(o.p50)} / ${ms(o.p99)} (${ms(f.p50)} / ${ms(f.p99)})`);
      detail(`  by process, ours (µs per request)`, byProcess(o));
      detail(`  by process, floor (µs per request)`, byProcess(f));
    });
    return;
  }
  const same = await storeSameAnswer(r);
  const rounds: Array<{ bare: LoadResult; same: LoadResult; ours: LoadResult; health: LoadResult }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const bare = await load({ url: `${r.bare.url}/hello`, cpu: r.bare.cpuSeconds, ...opts });
    const sameRun = await load({ url: `${r.bare.url}/answer`, cpu: r.bare.cpuSeconds, ...opts });
    const o = await ours();
    const health = await load({
      url: `${r.server.url}/api/healthz`,
      cpu: r.server.cpuSeconds,
      cpuParts: r.server.cpuParts,
      ...opts,
    });
    rounds.push({ bare, same: sameRun, ours: o, health });
  }
  const ratio = median(rounds.map((x) => x.ours.rps / x.same.rps));
  const healthRatio = median(rounds.map((x) => x.health.rps / x.bare.rps));
  figure(`${label}`, `${pct(ratio)} of payload floor (median)`, {
    bare: `payload floor ${fmt(median(rounds.map((x) => x.same.rps)))} req/s, hello ${fmt(median(rounds.map((x) => x.bare.rps)))} req/s`,
    target: `>= ${TARGET_PAYLOAD_RATIO * 100} % of the payload floor, all 2xx`,
    met: ratio >= TARGET_PAYLOAD_RATIO && rounds.every((x) => clean(x.ours)),
  });
  figure(`${r.mode}: GET healthz (${THROUGHPUT_CONN} conn.)`, `${pct(healthRatio)} of bare hello (median)`, {
    bare: `hello ${fmt(median(rounds.map((x) => x.bare.rps)))} req/s`,
    target: `>= ${TARGET_HEALTHZ_RATIO * 100} % of bare hello, all 2xx`,
    met: healthRatio >= TARGET_HEALTHZ_RATIO && rounds.every((x) => clean(x.health)),
  });
  detail(
    `payload floor: bare Fastify, our answer's bytes`,
    `${fmt(same.bodyBytes)} B body, ${same.headerCount} headers, ${fmt(same.headerBytes)} B`,
  );
  rounds.forEach(({ bare, same: sameRun, ours: o, health }, i) => {
    detail(
      `round ${i + 1}: req/s ours, payload floor, % of it`,
      `${fmt(o.rps)}, ${fmt(sameRun.rps)}, ${pct(o.rps / sameRun.rps)}`,
    );
    detail(
      `  healthz, hello req/s, % of it`,
      `${fmt(health.rps)}, ${fmt(bare.rps)}, ${pct(health.rps / bare.rps)}`,
    );
    detail(
      `  CPU µs/request: ours, payload floor, healthz, hello`,
      `${cpu(o)}, ${cpu(sameRun)}, ${cpu(health)}, ${cpu(bare)}`,
    );
    detail(
      `  p50 / p99: ours, payload floor`,
      `${ms(o.p50)} / ${ms(o.p99)}, ${ms(sameRun.p50)} / ${ms(sameRun.p99)}${failures(o)}${failures(health)}`,
    );
    const parts = byProcess(o);
    if (parts) detail(`  by process (µs per request)`, parts);
  });
}

/** Headers a server sets per connection or per answer, not part of what an answer carries. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * The fair reference of get-user-colleges: one of our answers (its body and headers, a student's ten
 * colleges) stored in the bare server, which then sends it as bare Fastify would (JSON.stringify, the same
 * headers). Only a detail beside the figure: the target stays against the hello route.
 */
async function storeSameAnswer(
  r: Run,
): Promise<{ bodyBytes: number; headerCount: number; headerBytes: number }> {
  const res = await fetch(`${r.server.url}/api${getUserColleges.path}`, { headers: bearer(r.students[0]!) });
  const text = await res.text();
  if (!res.ok) throw new Error(`get-user-colleges: HTTP ${res.status}`);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!PER_ANSWER.has(k)) headers[k] = v;
  });
  const put = await fetch(`${r.bare.url}/answer`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ headers, body: JSON.parse(text) as unknown }),
  });
  if (!put.ok) throw new Error(`bare /answer: HTTP ${put.status}`);
  return {
    bodyBytes: Buffer.byteLength(text),
    headerCount: Object.keys(headers).length,
    headerBytes: Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0),
  };
}

async function addNotes(r: Run): Promise<void> {
  // Request i: student i mod S, that student's note number i div S (titles are unique per student).
  const S = r.students.length;
  const requests = Array.from({ length: S * NOTES_EACH }, (_, i) =>
    post(addNote.path, r.students[i % S]!, {
      note: {
        title: `Bench note ${Math.floor(i / S) + 1}`,
        content: 'Ask the counselor about the fee waiver and the second recommendation letter.',
        deadline: i % 2 ? '2027-01-15' : null,
      },
    }),
  );
  const n = await load({
    url: r.server.url,
    cpu: r.server.cpuSeconds,
    cpuParts: r.server.cpuParts,
    connections: THROUGHPUT_CONN,
    amount: requests.length,
    requests,
  });
  figure(
    `${r.mode}: POST add-note (${THROUGHPUT_CONN} conn., ${fmt(requests.length)} notes)`,
    `${fmt(n.rps)} req/s`,
    {
      bare: `${fmt(r.bare50.rps)} req/s`,
      target: 'all 2xx',
      met: clean(n) && n.requests === requests.length,
    },
  );
  detail('latency p50 / p99, server CPU per request', `${ms(n.p50)} / ${ms(n.p99)}, ${cpu(n)}${failures(n)}`);
  if (byProcess(n)) detail('server CPU per request by process (µs)', byProcess(n));
}

async function checklistTicks(r: Run): Promise<void> {
  // Spread over every student, college and application item; each tick flips an item. Items 0-3 only:
  // a college with no application fee has no fee task, so its application section has 4 items, not 5
  // (ticking a fifth is answered 409 "stale item", as it should be).
  const S = r.students.length;
  const ITEMS = 4;
  const requests = Array.from({ length: S * COLLEGES_EACH * ITEMS * 2 }, (_, i) => {
    const s = i % S;
    const college = Math.floor(i / S) % COLLEGES_EACH;
    const item = Math.floor(i / (S * COLLEGES_EACH)) % ITEMS;
    const completed = Math.floor(i / (S * COLLEGES_EACH * ITEMS)) % 2 === 0;
    return post(updateChecklist.path, r.students[s]!, {
      collegeName: r.lists[s]![college]!,
      section: 'application',
      itemIndex: item,
      completed,
    });
  });
  const t = await throughput(r, requests);
  figure(`${r.mode}: POST update-checklist, one item (${THROUGHPUT_CONN} conn.)`, `${fmt(t.rps)} req/s`, {
    bare: `${fmt(r.bare50.rps)} req/s`,
    target: 'all 2xx',
    met: clean(t),
  });
  detail('latency p50 / p99, server CPU per request', `${ms(t.p50)} / ${ms(t.p99)}, ${cpu(t)}${failures(t)}`);
  if (byProcess(t)) detail('server CPU per request by process (µs)', byProcess(t));
}

/** A latency target at `connections`, next to bare Fastify's latency at the same connections. */
async function latencyFigure(
  r: Run,
  label: string,
  requests: LoadRequest[],
  target: { pick: 'p50' | 'p99'; ms: number; connections: number },
): Promise<void> {
  const { pick, connections } = target;
  const opts = { connections, duration: SECONDS, warmup: WARMUP };
  const bare = await load({ url: `${r.bare.url}/hello`, cpu: r.bare.cpuSeconds, ...opts });
  const x = await load({ url: r.server.url, cpu: r.server.cpuSeconds, ...opts, requests });
  figure(`${r.mode}: ${label} (${connections} conn.)`, `${pick} ${ms(x[pick])}`, {
    bare: `${pick} ${ms(bare[pick])}`,
    target: `${pick} <= ${target.ms} ms, all 2xx`,
    met: x[pick] <= target.ms && clean(x),
  });
  detail(
    'req/s, p50 / p99, server CPU per request',
    `${fmt(x.rps)} req/s, ${ms(x.p50)} / ${ms(x.p99)}, ${cpu(x)}${failures(x)}`,
  );
}

async function addCollegeBurst(r: Run): Promise<void> {
  const before = r.scorecardSearches(NEW_COLLEGE);
  const requests = Array.from({ length: CONCURRENT_ADDS }, (_, i) =>
    post(addCollege.path, r.students[i % r.students.length]!, { name: NEW_COLLEGE }),
  );
  const a = await load({
    url: r.server.url,
    cpu: r.server.cpuSeconds,
    connections: CONCURRENT_ADDS,
    amount: CONCURRENT_ADDS,
    // Queued behind 999 others: a browser waits, so the figure waits (and reports how long) too.
    timeout: 120,
    requests,
  });
  // Until the one job has finished: its state, and how often it ran.
  const student = r.students[0]!;
  const deadline = Date.now() + 120_000;
  let state = '';
  let attempts = 0;
  while (Date.now() < deadline) {
    const s = (await api(
      r.server.url,
      student.idToken,
      'GET',
      `${getIngestionStatus.path}?${new URLSearchParams({ name: NEW_COLLEGE })}`,
    )) as {
      data: { state: string; attempts: number };
    };
    ({ state, attempts } = s.data);
    if (state === 'done' || state === 'failed') break;
    await new Promise((res) => setTimeout(res, 250));
  }
  const jobs = r.scorecardSearches(NEW_COLLEGE) - before;
  const ok = clean(a) && a.requests === CONCURRENT_ADDS && jobs === 1 && attempts === 1 && state === 'done';
  figure(
    `${r.mode}: ${fmt(CONCURRENT_ADDS)} concurrent add-college of one new name`,
    `${jobs} job${jobs === 1 ? '' : 's'}, ${state}`,
    {
      target: `exactly 1 job, all ${fmt(CONCURRENT_ADDS)} answered 2xx`,
      met: ok,
    },
  );
  detail(
    'answers, latency p50 / p99',
    `${fmt(a.requests)} (${Object.entries(a.statuses)
      .map(([s, n]) => `${n}x${s}`)
      .join(', ')}), ${ms(a.p50)} / ${ms(a.p99)}${a.errors ? `, ${a.errors} errors` : ''}`,
  );
  detail('job attempts / Scorecard searches for the name', `${attempts} / ${jobs}`);
}

async function measure(r: Run, wanted: (f: FigureName) => boolean): Promise<void> {
  const guard = async (f: FigureName, fn: () => Promise<void>) => {
    if (!wanted(f)) return;
    try {
      await fn();
    } catch (err) {
      failedFigure(`${r.mode}: ${f}`, err);
    }
  };
  await guard('user-colleges', () => userColleges(r));
  await guard('add-note', () => addNotes(r));
  await guard('checklist-tick', () => checklistTicks(r));
  const student = (i: number) => r.students[i % r.students.length]!;
  await guard('suggestions', () =>
    latencyFigure(
      r,
      `GET get-college-suggestions at ${fmt(r.cache.names.length)} colleges`,
      suggestionQueries(r.cache.names, 2000).map((query, i) =>
        get(getCollegeSuggestions.path, student(i), { query }),
      ),
      { pick: 'p99', ms: 15, connections: LATENCY_CONN },
    ),
  );
  await guard('search', () =>
    latencyFigure(
      r,
      'GET search-college, cache hit',
      r.cache.gathered.map((name, i) => get(searchCollege.path, student(i), { name })),
      { pick: 'p50', ms: 5, connections: SEARCH_CONN },
    ),
  );
  await guard('add-college', () => addCollegeBurst(r));
}

export async function run(only: string[] = []): Promise<void> {
  const modes = (['embedded', 'distributed'] as const).filter(
    (m) => only.includes(m) || !only.some((o) => o === 'embedded' || o === 'distributed'),
  );
  const named = only.filter((o) => (FIGURES as readonly string[]).includes(o));
  const wanted = (f: FigureName) => named.length === 0 || named.includes(f);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-'));
  console.log(`logs and data of this run: ${work}`);
  const emulator = await startAuthEmulator({
    port: Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? BASE_PORT + 50),
  });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  const [scorecard, openai] = await Promise.all([startScorecardFake(), startOpenAiFake()]);
  const bare = await startBare({ port: PORTS.bare, logFile: path.join(work, 'bare.log') });
  try {
    const t0 = performance.now();
    const students = await createStudents(STUDENTS);
    detail(`${STUDENTS} verified students created`, `${fmt((performance.now() - t0) / 1000, 1)} s`);
    const providers = {
      // The limiter runs on every request as usual; its ceiling (3,000 a minute per student) is raised
      // because 200 students at the benchmark's rates go past it, and a 429 would measure nothing.
      RATE_LIMIT_MAX: '100000000',
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      SCORECARD_API_URL: scorecard.url,
      SCORECARD_API_KEY: scorecard.apiKey,
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: openai.apiKey,
    };
    for (const mode of modes) {
      console.log(`\n--- ${mode} run ---`);
      let server: BenchServer | null = null;
      let floor: BenchServer | undefined;
      let cleanup = async () => {};
      try {
        const t1 = performance.now();
        let cache: CollegeCache;
        let afterSeeding = async () => {};
        let makeFloor: (() => Promise<BenchServer>) | undefined;
        if (mode === 'embedded') {
          const dataDir = path.join(work, 'embedded-pglite');
          cache = await seedCollegeCache({ dataDir }, CACHED_COLLEGES);
          detail(
            `college cache seeded (PGlite)`,
            `${fmt(cache.names.length)} colleges, ${fmt((performance.now() - t1) / 1000, 1)} s`,
          );
          server = await startEmbedded({
            port: PORTS.embedded,
            dataDir,
            logFile: path.join(work, 'embedded.log'),
            env: providers,
          });
        } else {
          const database = await freshDatabase('bench');
          const prefix = uniquePrefix('bench');
          cleanup = async () => {
            await database.drop().catch(() => {});
            await clearRedisPrefix(prefix).catch(() => {});
          };
          cache = await seedCollegeCache({ url: database.url }, CACHED_COLLEGES);
          afterSeeding = () => vacuumAnalyze(database.url, ['user_data.user_college', 'user_data.student']);
          makeFloor = async () =>
            withPostgresCpu(
              await startFloor({ port: PORTS.floor, databaseUrl: database.url, logDir: work }),
              new URL(database.url).pathname.slice(1),
            );
          detail(
            `college cache seeded (Postgres)`,
            `${fmt(cache.names.length)} colleges, ${fmt((performance.now() - t1) / 1000, 1)} s`,
          );
          server = withPostgresCpu(
            await startDistributedRun({
              port: PORTS.distributed,
              databaseUrl: database.url,
              redisUrl: TEST_REDIS_URL,
              queuePrefix: prefix,
              logFile: path.join(work, 'distributed.log'),
              env: providers,
            }),
            new URL(database.url).pathname.slice(1),
          );
        }
        const t2 = performance.now();
        // Colleges whose facts are gathered: adding one asks for no background work. Colleges of the
        // snapshot have none yet, and 2,000 of them on lists queued 2,000 enrichment jobs (AI is configured:
        // the fakes) that ran through every figure after, in the embedded gateway's thread and the
        // distributed worker and colleges service, for longer than the figures take.
        const lists = await seedStudentLists(server.url, students, cache.gathered, COLLEGES_EACH);
        await afterSeeding();
        detail(
          `${fmt(STUDENTS * COLLEGES_EACH)} list entries added through the API`,
          `${fmt((performance.now() - t2) / 1000, 1)} s`,
        );
        const bare50 = await load({
          url: `${bare.url}/hello`,
          cpu: bare.cpuSeconds,
          connections: THROUGHPUT_CONN,
          duration: SECONDS,
          warmup: WARMUP,
        });
        figure(
          `bare Fastify hello (${THROUGHPUT_CONN} conn., before the ${mode} figures)`,
          `${fmt(bare50.rps)} req/s`,
        );
        const scorecardSearches = (name: string) =>
          scorecard.server.requests.filter((q) => q.query.get('school.name') === name).length;
        if (makeFloor && wanted('user-colleges')) floor = await makeFloor();
        await measure(
          {
            mode,
            server,
            students,
            lists,
            cache,
            bare,
            bare50,
            scorecardSearches,
            ...(floor ? { floor } : {}),
          },
          wanted,
        );
      } catch (err) {
        failedFigure(`${mode} run`, err);
      } finally {
        await floor?.stop();
        await server?.stop();
        await cleanup();
      }
    }
  } finally {
    await bare.stop();
    await Promise.all([scorecard.close(), openai.close()]);
    await emulator.stop();
  }
  if (!process.env.BENCH_KEEP) fs.rmSync(work, { recursive: true, force: true });
}
