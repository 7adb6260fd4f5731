// Component benchmark (not in the default run: `npm run bench -- colleges`): the bulk import of the
// 6,543-row Scorecard CSV, and the ingestion throughput of one worker process against the colleges service
// in a process of its own, with the local provider fakes. Suggestions and search are serving.bench.ts.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import {
  clearRedisPrefix,
  freshDatabase,
  uniquePrefix,
  startOpenAiFake,
  startScorecardFake,
  TEST_REDIS_URL,
} from '../tests/kit/src/index.ts';
// A tool, like the data scripts: it reads the whole demo CSV beside the checkout (the tests' fixture holds
// 500 of its rows).
import { DEMO_CSV as SCORECARD_DEMO_CSV } from '../scripts/data/build-snapshot.ts';
import {
  internalKey,
  migrateModule,
  signInternalCall,
  type ServiceModule,
} from '../packages/service-kit/src/index.ts';
import { openDb } from '../packages/store/src/index.ts';
import collegesService from '../services/colleges/src/app.ts';
import { importScorecard } from '../services/colleges/src/scorecard-import.ts';
import { spawnTs, stopProcess, waitForHttp } from '../scripts/lib/stack.ts';
import { fmt, report } from './lib.ts';

export const inDefaultRun = false;

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

/**
 * One worker process against the colleges service in a process of its own (as deployed), the provider
 * fakes in this process: requests are queued first, then the worker drains them; the rate is requests
 * finished over the span from the first start to the last finish, read from the request rows.
 */
export async function ingestionThroughput(): Promise<void> {
  const n = Number(process.env.BENCH_INGEST_COLLEGES ?? 1000);
  const concurrency = process.env.BENCH_WORKER_CONCURRENCY ?? '50';
  const [scorecard, openai, database] = await Promise.all([
    startScorecardFake({ csvPath: SCORECARD_DEMO_CSV }),
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
        'college_ready_ingestion_job_duration_seconds',
      );
      summarise(
        await (await fetch(`http://127.0.0.1:${workerPort}/metrics`, scrape)).text(),
        'college_ready_ingestion_provider_request_duration_seconds',
      );
      summarise(
        await (await fetch(`${collegesUrl}/metrics`, scrape)).text(),
        'college_ready_http_request_duration_seconds',
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
  await importTime();
  await ingestionThroughput();
}
