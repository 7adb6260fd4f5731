// Colleges: suggestions and cache-hit search at 10,000 cached colleges (real Postgres, through the gateway
// with a real token), ingestion throughput of one worker process with the local provider fakes, and the
// bulk import of the 6,543-row Scorecard CSV.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type autocannon from 'autocannon';
import { buildCollege, type TestGateway } from '../packages/testkit/src/index.ts';
import {
  clearRedisPrefix,
  createVerifiedUser,
  freshDatabase,
  uniquePrefix,
  SCORECARD_DEMO_CSV,
  startAuthEmulator,
  startOpenAiFake,
  startScorecardFake,
  startTestGateway,
  TEST_REDIS_URL,
} from '../packages/testkit/src/index.ts';
import {
  internalKey,
  migrateModule,
  signInternalCall,
  type ServiceModule,
} from '../packages/service-kit/src/index.ts';
import { openDb } from '../packages/store/src/index.ts';
import collegesService from '../services/colleges/src/app.ts';
import { CollegeRepository } from '../services/colleges/src/repository.ts';
import { importScorecard } from '../services/colleges/src/scorecard-import.ts';
import { spawnTs, stopProcess, waitForHttp } from '../scripts/lib/stack.ts';
import { fmt, load, report } from './lib.ts';

const TARGET_COLLEGES = 10_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

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

/** Requests that walk through `paths`, one after another, across all connections. */
function rotating(paths: string[]): autocannon.Request[] {
  let i = 0;
  return [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }];
}

export async function importTime(): Promise<void> {
  const database = await freshDatabase('bench_import');
  const db = await openDb({ url: database.url });
  try {
    await migrateModule(db, collegesService as unknown as ServiceModule);
    const s = await importScorecard(SCORECARD_DEMO_CSV, db);
    report(`import ${fmt(s.rows)}-row Scorecard CSV (Postgres)`, `${fmt(s.ms / 1000, 1)} s`);
    report('  institutions stored per second', `${fmt((s.institutions / s.ms) * 1000)} /s`);
    const again = await importScorecard(SCORECARD_DEMO_CSV, db);
    report('  re-import (every row an update)', `${fmt(again.ms / 1000, 1)} s`);
  } finally {
    await db.close();
    await database.drop();
  }
}

async function readPaths(gw: TestGateway, token: string, duration: number): Promise<void> {
  const repo = new CollegeRepository(gw.db);
  await importScorecard(SCORECARD_DEMO_CSV, gw.db);
  const have = await repo.countColleges();
  const extra = Array.from({ length: TARGET_COLLEGES - have }, (_, i) =>
    buildCollege({
      name: `Synthetic ${['Valley', 'Lakeside', 'Summit', 'Harbor', 'Prairie'][i % 5]} College ${i + 1}`,
    }),
  );
  for (let i = 0; i < extra.length; i += 500) await repo.upsertColleges(extra.slice(i, i + 500));
  await gw.db.query('ANALYZE colleges.college; ANALYZE colleges.college_alias');
  const count = await repo.countColleges();
  const names = (await gw.db.query<{ name: string }>('SELECT name FROM colleges.college')).rows.map(
    (r) => r.name,
  );
  const headers = { authorization: `Bearer ${token}` };

  // The floor: an authenticated route with no I/O through the same gateway, same connections.
  const me = await load({ url: `${gw.url}/api/me`, headers, duration });
  report('reference: GET /api/me (no I/O), 50 connections', `${fmt(me.rps)} req/s`);
  report('  latency p50 / p99', `${me.p50} / ${me.p99} ms`);

  const queries = suggestionQueries(names, 2000).map(
    (q) => `/api/get-college-suggestions?query=${encodeURIComponent(q)}`,
  );
  await load({ url: gw.url, headers, duration: 2, requests: rotating(queries) });
  const s = await load({ url: gw.url, headers, duration, requests: rotating(queries) });
  report(`suggestions at ${fmt(count)} colleges, 50 connections`, `${fmt(s.rps)} req/s`);
  report('  latency p50', `${s.p50} ms`);
  report('  latency p99', `${s.p99} ms`, '<= 15 ms', s.p99 <= 15);
  report('  errors / non-2xx', `${s.errors} / ${s.non2xx}`, '0', s.errors + s.non2xx === 0);

  const searches = names
    .filter((_, i) => i % 7 === 0)
    .map((n) => `/api/search-college?name=${encodeURIComponent(n)}`);
  await load({ url: gw.url, headers, duration: 2, connections: 1, requests: rotating(searches) });
  const one = await load({ url: gw.url, headers, duration, connections: 1, requests: rotating(searches) });
  report('cache-hit search, 1 connection', `${fmt(one.rps)} req/s`);
  report('  latency p50', `${one.p50} ms`, '<= 5 ms', one.p50 <= 5);
  report('  latency p99', `${one.p99} ms`);
  const many = await load({ url: gw.url, headers, duration, requests: rotating(searches) });
  report('cache-hit search, 50 connections', `${fmt(many.rps)} req/s`);
  report('  latency p50 / p99', `${many.p50} / ${many.p99} ms`);
  report(
    '  errors / non-2xx',
    `${one.errors + many.errors} / ${one.non2xx + many.non2xx}`,
    '0',
    one.errors + many.errors + one.non2xx + many.non2xx === 0,
  );
}

/**
 * One worker process against the colleges service in a process of its own (as deployed), the provider
 * fakes in this process: requests are queued first, then the worker drains them; the rate is requests
 * finished over the span from the first start to the last finish, read from the request rows.
 */
export async function ingestionThroughput(): Promise<void> {
  const n = Number(process.env.BENCH_INGEST_COLLEGES ?? 1000);
  const concurrency = process.env.BENCH_WORKER_CONCURRENCY ?? '50';
  const [scorecard, openai, database] = await Promise.all([
    startScorecardFake(),
    startOpenAiFake(),
    freshDatabase('bench_ingest'),
  ]);
  const prefix = uniquePrefix('bench');
  const internalToken = randomBytes(32).toString('hex');
  const metricsToken = randomBytes(32).toString('hex');
  const common = {
    // Not production: the bench's environment points at the Auth emulator, which production refuses.
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    INTERNAL_TOKEN: internalToken,
    METRICS_TOKEN: metricsToken,
  };
  const [collegesPort, workerPort] = [await freePort(), await freePort()];
  const colleges = spawnTs('services/colleges/src/server.ts', {
    ...common,
    PORT: String(collegesPort),
    DB_POOL_MAX: '20',
    INGESTION_SWEEP_MS: '0',
  });
  const collegesUrl = `http://127.0.0.1:${collegesPort}`;
  let worker: ReturnType<typeof spawnTs> | null = null;
  const db = await openDb({ url: database.url });
  try {
    await waitForHttp(`${collegesUrl}/healthz`, 60_000, colleges);
    const names = [
      ...new Set(
        (await import('node:fs'))
          .readFileSync(SCORECARD_DEMO_CSV, 'utf8')
          .split('\n')
          .slice(1)
          .map((l) => l.split(',')[2]!)
          .filter((x) => x && !x.startsWith('"')),
      ),
    ].slice(0, n);
    // A signed-in student as the gateway would forward one (a signed internal call for a verified uid).
    const key = internalKey(internalToken);
    const student = { uid: 'bench-student', email: null, emailVerified: true, name: null };
    const headers = () => ({
      ...signInternalCall(key, { method: 'POST', url: '/api/add-college', auth: student }),
      'content-type': 'application/json',
    });
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(
        names.slice(i, i + 50).map((name) =>
          fetch(`${collegesUrl}/api/add-college`, {
            method: 'POST',
            headers: headers(),
            body: JSON.stringify({ name }),
          }),
        ),
      );
    }
    worker = spawnTs('services/ingestion-worker/src/server.ts', {
      ...common,
      PORT: String(workerPort),
      COLLEGES_SERVICE_URL: collegesUrl,
      INGESTION_CONCURRENCY: concurrency,
      SCORECARD_API_URL: scorecard.url,
      SCORECARD_API_KEY: scorecard.apiKey,
      SCORECARD_REQUESTS_PER_MINUTE: '10000000',
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_REQUESTS_PER_MINUTE: '10000000',
    });
    await waitForHttp(`http://127.0.0.1:${workerPort}/healthz`, 60_000, worker);
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const r = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM colleges.ingestion_request WHERE state IN ('queued', 'running')`,
      );
      if (r.rows[0]!.n === 0) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    const span = await db.query<{ seconds: number; ok: number; asked: number }>(
      `SELECT extract(epoch FROM max(finished_at) - min(started_at))::float AS seconds,
              count(*) FILTER (WHERE state = 'done')::int AS ok, count(*)::int AS asked
       FROM colleges.ingestion_request`,
    );
    const { seconds, ok, asked } = span.rows[0]!;
    const rate = ok / Math.max(seconds, 0.001);
    report(
      `ingestion, 1 worker process (concurrency ${concurrency})`,
      `${fmt(rate)} colleges/s`,
      '>= 200 /s',
      rate >= 200,
    );
    report('  colleges gathered / requests', `${fmt(ok)} / ${fmt(asked)}`);
    if (process.env.BENCH_DEBUG_METRICS) {
      const scrape = { headers: { authorization: `Bearer ${metricsToken}` } };
      const summarise = (text: string, metric: string) => {
        const sums = new Map<string, number>();
        const counts = new Map<string, number>();
        for (const line of text.split('\n')) {
          const m = new RegExp(`^${metric}_(sum|count)\\{(.*)\\} (.*)$`).exec(line);
          if (!m) continue;
          (m[1] === 'sum' ? sums : counts).set(m[2]!, Number(m[3]));
        }
        for (const [k, v] of sums) {
          console.log(
            `  ${metric} ${k}: avg ${((v / (counts.get(k) || 1)) * 1000).toFixed(1)} ms, n ${counts.get(k)}`,
          );
        }
      };
      summarise(
        await (await fetch(`http://127.0.0.1:${workerPort}/metrics`, scrape)).text(),
        'ingestion_job_duration_seconds',
      );
      summarise(
        await (await fetch(`http://127.0.0.1:${workerPort}/metrics`, scrape)).text(),
        'ingestion_provider_request_duration_seconds',
      );
      summarise(
        await (await fetch(`${collegesUrl}/metrics`, scrape)).text(),
        'http_request_duration_seconds',
      );
    }
  } finally {
    if (worker) await stopProcess(worker, 'SIGTERM', 10_000);
    await stopProcess(colleges, 'SIGTERM', 10_000);
    await db.close();
    await database.drop();
    await clearRedisPrefix(prefix);
    await Promise.all([scorecard.close(), openai.close()]);
  }
}

export async function run(): Promise<void> {
  const duration = Number(process.env.BENCH_SECONDS ?? 10);
  await importTime();

  const emulator = await startAuthEmulator({ port: Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9292) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  try {
    const user = await createVerifiedUser({ name: 'Bench' });
    const gw = await startTestGateway({
      listen: true,
      queue: 'memory',
      env: { RUN_WORKER: 'false', AUTH_USER_CACHE_MS: '30000', DB_POOL_MAX: '20' },
    });
    try {
      await readPaths(gw, user.idToken, duration);
    } finally {
      await gw.close();
    }
    await ingestionThroughput();
  } finally {
    await emulator.stop();
  }
}
