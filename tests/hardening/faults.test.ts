// Faults, one after another in this one file. The servers that fail are this file's own: a Postgres
// cluster and a redis-server started for it on ports 19095/19096 (other test files keep using the
// machine's), a worker in its own process, a service process of the distributed run (ports 19087-19093),
// and the local Scorecard and OpenAI fakes.
// The promises checked:
// - every acknowledged write is still there after the database crashed;
// - while a dependency is down the API answers 503 with a clear message (never a 500, never a hang),
//   and it recovers by itself once the dependency is back, without a restart;
// - every ingestion request ends done, or failed with a reason a student can read, whatever the worker,
//   Redis or the providers did meanwhile.
import type { College, IngestionRequest, Note } from '@ct/contracts';
import {
  buildCollege,
  createVerifiedUser,
  distributedSuite,
  seedColleges,
  startOpenAiFake,
  startScorecardFake,
  startTestGateway,
  TEST_REDIS_URL,
  type ApiResult,
  type OpenAiFake,
  type ScorecardFake,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnTs, stopProcess, waitForHttp, type RunningProcess } from '../../scripts/lib/stack.ts';
import { unclearError, type ApiResponse } from './lib/routes.ts';
import {
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from './lib/servers.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

const PG_PORT = 19095;
const REDIS_PORT = 19096;
const WORKER_PORTS = [19081, 19082, 19083];

type Body<T> = { success: boolean; message: string; data: T; code?: string };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until `check` gives a value, or fails with `label` after `ms`. */
async function eventually<T>(check: () => Promise<T | undefined>, ms: number, label: string): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${label}${last ? `: ${String(last)}` : ''}`);
}

/** The call, or `null` if no answer came within `ms` (a hung request is a failure of its own). */
async function within<T>(p: Promise<T>, ms = 10_000): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const asResponse = (r: ApiResult<unknown>): ApiResponse => ({
  status: r.status,
  headers: r.headers as ApiResponse['headers'],
  text: JSON.stringify(r.body),
  json: r.body as Record<string, unknown>,
});

/** Problems with a "dependency down" answer: must be a clear 503. */
function notAClear503(r: ApiResult<unknown> | null, what: string): string[] {
  if (!r) return [`${what}: no answer within 10 s`];
  if (r.status !== 503) return [`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`];
  return unclearError(asResponse(r)).map((p) => `${what}: ${p}`);
}

/** Sets the worker's and colleges service's own variables (embedded, they read the environment). */
function providerEnv(env: Record<string, string | undefined>): void {
  const all: Record<string, string | undefined> = {
    SCORECARD_REQUESTS_PER_MINUTE: '100000',
    OPENAI_REQUESTS_PER_MINUTE: '100000',
    INGESTION_BACKOFF_MS: '50',
    INGESTION_SWEEP_MS: '1000',
    ...env,
  };
  for (const [k, v] of Object.entries(all)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

const ingestion = (gw: TestGateway, student: TestUser) => ({
  add: (name: string) =>
    gw.api<Body<IngestionRequest>>('POST', '/api/add-college', { token: student.idToken, body: { name } }),
  status: async (name: string) =>
    (
      await gw.api<Body<IngestionRequest>>('GET', '/api/ingestion-status', {
        token: student.idToken,
        query: { name },
      })
    ).body.data,
  /** Waits for the request to end; returns it. */
  finished(name: string, ms = 90_000) {
    return eventually(
      async () => {
        const s = await this.status(name);
        return s && (s.state === 'done' || s.state === 'failed') ? s : undefined;
      },
      ms,
      `the ingestion of ${name} to finish`,
    );
  },
});

/** A failed request must say why in words a student can read: no stack, no code dump, no secret. */
function unreadableReason(r: IngestionRequest, secrets: string[]): string[] {
  if (r.state !== 'failed') return [];
  const why = r.failureReason ?? '';
  const out: string[] = [];
  if (why.trim().length < 10) out.push(`${r.name}: failed without a reason ("${why}")`);
  if (/\bat .+:\d+:\d+|Error:|TypeError|ECONN|undefined|\{.*\}/.test(why))
    out.push(`${r.name}: reason looks internal: ${why}`);
  for (const s of secrets) if (s && why.includes(s)) out.push(`${r.name}: reason leaks a secret`);
  return out;
}

// ---------------------------------------------------------------------------------------------------

describe('Postgres crashes while students write', () => {
  let pg: PrivatePostgres;
  let gw: TestGateway;
  beforeAll(async () => {
    pg = startPrivatePostgres(PG_PORT);
    gw = await startTestGateway({ queue: 'memory', env: { DATABASE_URL: pg.url, RUN_WORKER: 'false' } });
  });
  afterAll(async () => {
    try {
      await gw?.close();
    } finally {
      pg?.destroy();
    }
  });

  it('keeps every acknowledged note, answers 503 while down, and recovers by itself', async () => {
    const students = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createVerifiedUser({ name: `Writer ${i + 1}` })),
    );
    const acked = new Map<string, Set<string>>(students.map((s) => [s.uid, new Set()]));
    const answers: Array<{ at: number; r: ApiResult<Body<Note>> | null }> = [];
    let writing = true;
    const writers = students.map(async (s, i) => {
      for (let n = 1; writing && n <= 28; n++) {
        const r = await within(
          gw.api<Body<Note>>('POST', '/api/add-note', {
            token: s.idToken,
            body: {
              note: { title: `Writer ${i + 1} note ${n}`, content: 'Do not lose me.', deadline: null },
            },
          }),
        );
        answers.push({ at: Date.now(), r });
        if (r?.status === 200) acked.get(s.uid)!.add(r.body.data.id);
        await sleep(200); // about 5 writes a second each: writing before, during and after the crash
      }
    });

    await sleep(1500);
    pg.stop('immediate'); // a crash: no checkpoint, the WAL is replayed at the next start
    const down: string[] = [];
    down.push(...notAClear503(await within(gw.api('GET', '/api/readyz')), 'readyz'));
    down.push(
      ...notAClear503(
        await within(gw.api('GET', '/api/get-notes', { token: students[0]!.idToken })),
        'get-notes',
      ),
    );
    await sleep(1500);
    pg.start();
    const restartedAt = Date.now();
    await sleep(3000);
    writing = false;
    await Promise.all(writers);

    expect(down, 'answers while the database was down').toEqual([]);
    const wrong = answers
      .filter(({ r }) => !r || (r.status !== 200 && r.status !== 503))
      .map(({ r }) => (r ? `${r.status} ${JSON.stringify(r.body).slice(0, 120)}` : 'no answer in 10 s'));
    expect(wrong, 'every write is acknowledged or refused with 503').toEqual([]);
    const unclear = answers
      .filter(({ r }) => r?.status === 503)
      .flatMap(({ r }) => unclearError(asResponse(r!)));
    expect(unclear).toEqual([]);
    expect(
      answers.some(({ r }) => r?.status === 503),
      'the outage was seen',
    ).toBe(true);
    await eventually(
      async () => ((await gw.api('GET', '/api/readyz')).status === 200 ? true : undefined),
      30_000,
      'readiness after the restart',
    );
    expect(
      answers.some(({ at, r }) => at > restartedAt && r?.status === 200),
      'writes succeed again without restarting the gateway',
    ).toBe(true);

    for (const s of students) {
      const notes = (await gw.api<Body<Note[]>>('GET', '/api/get-notes', { token: s.idToken })).body.data;
      const ids = new Set(notes.map((n) => n.id));
      const lost = [...acked.get(s.uid)!].filter((id) => !ids.has(id));
      expect(lost, `acknowledged notes of ${s.name} missing after the crash`).toEqual([]);
      const titles = notes.map((n) => n.title);
      expect(new Set(titles).size, 'a note stored twice').toBe(titles.length);
    }
  });
});

// ---------------------------------------------------------------------------------------------------

describe('Redis dies mid-ingestion and comes back empty', () => {
  let redis: PrivateRedis;
  let scorecard: ScorecardFake;
  let gw: TestGateway;
  let student: TestUser;
  beforeAll(async () => {
    [redis, scorecard, student] = await Promise.all([
      startPrivateRedis(REDIS_PORT),
      startScorecardFake(),
      createVerifiedUser({ name: 'Redis Student' }),
    ]);
    providerEnv({
      SCORECARD_API_URL: scorecard.url,
      SCORECARD_API_KEY: scorecard.apiKey,
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
    });
    gw = await startTestGateway({ queue: 'bullmq', env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    try {
      scorecard?.server.release();
      await gw?.close();
    } finally {
      await redis?.kill();
      await scorecard?.close();
    }
  });

  it('answers clearly while Redis is down, keeps students working, and finishes every request after', async () => {
    const api = ingestion(gw, student);
    const names = ['Duke University', 'Rice University', 'Tufts University', 'Emory University'];
    scorecard.server.hold(); // jobs stay in the middle of gathering
    for (const n of names) expect([200, 202]).toContain((await api.add(n)).status);
    await scorecard.server.waitForCalls(1);

    await redis.kill();
    const problems: string[] = [];
    let late: Awaited<ReturnType<typeof api.add>> | null;
    try {
      problems.push(...notAClear503(await within(gw.api('GET', '/api/readyz')), 'readyz'));
      late = await within(api.add('Brown University'));
      if (!late) problems.push('add-college: no answer within 10 s while Redis is down');
      else if (late.status === 503) problems.push(...notAClear503(late, 'add-college'));
      else if (late.status !== 202 && late.status !== 200)
        problems.push(`add-college while Redis is down: ${late.status} ${JSON.stringify(late.body)}`);
      // Students' own data does not need Redis.
      const note = await within(
        gw.api('POST', '/api/add-note', {
          token: student.idToken,
          body: { note: { title: 'Written during the outage', content: 'Still here' } },
        }),
      );
      if (note?.status !== 200) problems.push(`add-note while Redis is down: ${note?.status ?? 'no answer'}`);
    } finally {
      await redis.start(); // empty: every job and lock is gone
    }

    scorecard.server.release();
    const accepted =
      late && (late.status === 202 || late.status === 200) ? [...names, 'Brown University'] : names;
    const ends: IngestionRequest[] = [];
    for (const n of accepted) {
      try {
        ends.push(await api.finished(n));
      } catch (err) {
        problems.push(`${n}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    problems.push(...ends.flatMap((r) => unreadableReason(r, [scorecard.apiKey])));
    for (const r of ends.filter((x) => x.state === 'done')) {
      const found = await gw.api<Body<College>>('GET', '/api/search-college', {
        token: student.idToken,
        query: { name: r.collegeName ?? r.name },
      });
      if (found.status !== 200) problems.push(`${r.name} is done but cannot be found (${found.status})`);
    }
    if (!ends.some((r) => r.state === 'done'))
      problems.push('no request done although the Scorecard answered');
    const ready = await eventually(
      async () => ((await gw.api('GET', '/api/readyz')).status === 200 ? true : undefined),
      30_000,
      'readiness after Redis is back',
    ).catch((err: unknown) => String(err));
    if (ready !== true) problems.push(String(ready));
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('the worker is killed with SIGKILL mid-job, twice', () => {
  const INTERNAL_TOKEN = 'faults-internal-token-0123456789';
  let scorecard: ScorecardFake;
  let gw: TestGateway;
  let student: TestUser;
  const workers: RunningProcess[] = [];

  async function startWorker(port: number): Promise<RunningProcess> {
    const w = spawnTs('services/ingestion-worker/src/server.ts', {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATABASE_URL: gw.database!.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: gw.prefix,
      QUEUE_LOCK_MS: '1500', // a dead worker's job is taken over once its lock expires
      INTERNAL_TOKEN,
      COLLEGES_SERVICE_URL: gw.internalUrl,
      SCORECARD_API_URL: scorecard.url,
      SCORECARD_API_KEY: scorecard.apiKey,
      SCORECARD_REQUESTS_PER_MINUTE: '100000',
      INGESTION_CONCURRENCY: '2',
    });
    workers.push(w);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 90_000, w);
    return w;
  }
  const kill9 = async (w: RunningProcess) => {
    const exited = new Promise((r) => w.child.once('exit', r));
    w.child.kill('SIGKILL');
    await exited;
  };

  beforeAll(async () => {
    [scorecard, student] = await Promise.all([
      startScorecardFake(),
      createVerifiedUser({ name: 'Crash Student' }),
    ]);
    providerEnv({
      SCORECARD_API_URL: scorecard.url,
      SCORECARD_API_KEY: scorecard.apiKey,
      OPENAI_API_KEY: undefined,
    });
    gw = await startTestGateway({ listen: true, env: { INTERNAL_TOKEN, RUN_WORKER: 'false' } });
  });
  afterAll(async () => {
    scorecard?.server.release();
    await Promise.all(workers.map((w) => stopProcess(w, 'SIGKILL', 1000)));
    await gw?.close();
    await scorecard?.close();
  });

  it('leaves no request stuck: each college is gathered once, every request ends done', async () => {
    const api = ingestion(gw, student);
    const names = [
      'Duke University',
      'Rice University',
      'Tufts University',
      'Emory University',
      'Vassar College',
    ];
    scorecard.server.hold();
    const first = await startWorker(WORKER_PORTS[0]!);
    for (const n of names) expect([200, 202]).toContain((await api.add(n)).status);
    await scorecard.server.waitForCalls(1);
    await kill9(first);

    const callsBefore = scorecard.server.calls;
    const second = await startWorker(WORKER_PORTS[1]!);
    await scorecard.server.waitForCalls(callsBefore + 1); // the second worker took a job over...
    await kill9(second); // ...and dies in the middle of it too

    scorecard.server.release();
    await startWorker(WORKER_PORTS[2]!);
    const ends = await Promise.all(names.map((n) => api.finished(n, 120_000)));
    expect(ends.map((r) => `${r.name}: ${r.state}`)).toEqual(names.map((n) => `${n}: done`));
    const rows = await gw.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM colleges.college WHERE name = ANY($1)',
      [ends.map((r) => r.collegeName)],
    );
    expect(rows.rows[0]?.n, 'each college stored exactly once').toBe(names.length);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('the AI provider and the Scorecard API fail in every way', () => {
  let scorecard: ScorecardFake;
  let openai: OpenAiFake;
  let gw: TestGateway;
  let student: TestUser;
  const SEEDED = 'Steady State University';
  beforeAll(async () => {
    [scorecard, openai, student] = await Promise.all([
      startScorecardFake(),
      startOpenAiFake(),
      createVerifiedUser({ name: 'Provider Student' }),
    ]);
    providerEnv({
      SCORECARD_API_URL: scorecard.url,
      SCORECARD_API_KEY: scorecard.apiKey,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: openai.url,
      SCORECARD_TIMEOUT_MS: '400',
      OPENAI_TIMEOUT_MS: '400',
      INGESTION_ATTEMPTS: '2',
    });
    gw = await startTestGateway({ queue: 'bullmq' });
    await seedColleges(gw.db, [buildCollege({ name: SEEDED })]);
  });
  afterAll(async () => {
    providerEnv({
      SCORECARD_TIMEOUT_MS: undefined,
      OPENAI_TIMEOUT_MS: undefined,
      INGESTION_ATTEMPTS: undefined,
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
    });
    await gw?.close();
    await Promise.all([scorecard?.close(), openai?.close()]);
  });

  it('ends every request done or failed with a readable reason, and students are served meanwhile', async () => {
    const api = ingestion(gw, student);
    const cases: Array<[string, string, () => void]> = [
      ['Duke University', 'Scorecard 500', () => scorecard.server.fail('500')],
      ['Rice University', 'Scorecard timeout', () => scorecard.server.fail('timeout')],
      ['Tufts University', 'Scorecard malformed JSON', () => scorecard.server.fail('malformed')],
      ['Emory University', 'OpenAI 500', () => openai.server.fail('500')],
      ['Vassar College', 'OpenAI timeout', () => openai.server.fail('timeout')],
      ['Bates College', 'OpenAI malformed JSON', () => openai.server.fail('malformed')],
      ['Colby College', 'both down', () => (scorecard.server.fail('500'), openai.server.fail('500'))],
      ['Williams College', 'OpenAI rate limited', () => openai.server.fail('429')],
    ];
    const problems: string[] = [];
    for (const [name, what, breakIt] of cases) {
      scorecard.server.succeed();
      openai.server.succeed();
      breakIt();
      const added = await api.add(name);
      if (added.status !== 202 && added.status !== 200) problems.push(`${what}: add-college ${added.status}`);
      // A student elsewhere in the app is not held up by a broken provider.
      const other = await within(
        gw.api('GET', '/api/search-college', { token: student.idToken, query: { name: SEEDED } }),
        5000,
      );
      if (other?.status !== 200)
        problems.push(`${what}: search of a cached college ${other?.status ?? 'hung'}`);
      const end = await api.finished(name, 60_000);
      problems.push(
        ...unreadableReason(end, [scorecard.apiKey, openai.apiKey, 'api_key=']).map((p) => `${what}: ${p}`),
      );
      if (end.state === 'done') {
        const c = await gw.api<Body<College>>('GET', '/api/search-college', {
          token: student.idToken,
          query: { name: end.collegeName ?? name },
        });
        if (c.status !== 200) problems.push(`${what}: done but not searchable (${c.status})`);
        // A broken source may leave gaps, but they must be listed, never made up.
        else if (what !== 'OpenAI rate limited' && !c.body.data.missing?.length)
          problems.push(`${what}: done with nothing listed as missing`);
      }
    }
    expect(problems).toEqual([]);

    // Both providers healthy again: a new request goes through.
    scorecard.server.succeed();
    openai.server.succeed();
    await api.add('Middlebury College');
    expect((await api.finished('Middlebury College', 60_000)).state).toBe('done');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('a service process dies in the distributed run', () => {
  const BASE = 19087; // gateway; the services take the next six ports
  const { stack } = distributedSuite({ label: 'faults_dist', basePort: BASE, env: { DB_POOL_MAX: '3' } });
  let restarted: RunningProcess | null = null;
  afterAll(async () => {
    if (restarted) await stopProcess(restarted, 'SIGKILL', 1000);
  });

  it('answers 503 for that service only, and recovers when it is back, the data intact', async () => {
    const student = await createVerifiedUser({ name: 'Distributed Student' });
    const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
      within(
        fetch(`${stack.gatewayUrl}/api${path}`, {
          method,
          headers: {
            authorization: `Bearer ${student.idToken}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as Body<Note[]>,
          headers: Object.fromEntries(r.headers),
        })),
      );
    const added = await call('POST', '/add-note', {
      note: { title: 'Before the crash', content: 'Keep me' },
    });
    expect(added?.status).toBe(200);

    const userData = stack.processes.find((p) => p.name === 'user-data')!;
    const exited = new Promise((r) => userData.child.once('exit', r));
    userData.child.kill('SIGKILL');
    await exited;

    const problems: string[] = [];
    problems.push(...notAClear503(await call('GET', '/get-notes'), 'get-notes while user-data is down'));
    const roles = await call('GET', '/get-staff-roles');
    if (!roles || roles.status >= 500)
      problems.push(`another service's route: ${roles?.status ?? 'no answer'}`);
    problems.push(...notAClear503(await within(gw503(stack.gatewayUrl)), 'readyz'));

    const port = BASE + 3; // user-data's place in scripts/lib/stack.ts PROCESSES
    restarted = spawnTs('services/user-data/src/server.ts', { ...stack.env, PORT: String(port) });
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 90_000, restarted);
    const back = await eventually(
      async () => {
        const r = await call('GET', '/get-notes');
        return r?.status === 200 ? r : undefined;
      },
      30_000,
      'get-notes through the same gateway after user-data is back',
    );
    expect(problems).toEqual([]);
    expect(back.body.data.map((n) => n.title)).toEqual(['Before the crash']);
  });
});

/** The gateway's readiness, as an ApiResult. */
async function gw503(base: string): Promise<ApiResult<unknown>> {
  const r = await fetch(`${base}/api/readyz`);
  return { status: r.status, body: await r.json(), headers: Object.fromEntries(r.headers) };
}
