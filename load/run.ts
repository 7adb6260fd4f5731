// `npm run load`: 200 simulated students for 60 s through the gateway, on the embedded run (one process)
// and on the distributed run (every service its own process), against real Postgres and Redis and the
// Firebase Auth emulator. Each student signs in, then goes round a session: list their colleges, open a
// checklist, tick an item, type into the college search (suggestions), look a college up, write a note,
// read their notes and deadlines. The college cache holds the 6,543 institutions of the Scorecard demo CSV.
//
// Two phases per run, 60 s each:
//  - "flat out": every student fires the next request as soon as the last one answered (the most the
//    stack can serve with 200 concurrent students; latency here is mostly queueing);
//  - "students": the same sessions with a think time of 0.5-1.5 s between actions, as people click.
// Printed per phase: req/s, p50/p95/p99/max latency, errors (anything but a 2xx), per step p50/p99.
// Targets: 0 errors, p99 <= 100 ms. Not part of `npm test`.
//
// Usage: npm run load [-- --students 200] [-- --duration 60] [-- --only embedded|distributed]
//                     [-- --phases flat,students] [-- --port 19080] [-- --emulator-port 19097]
// Ports: gateway 19080 (+1..+6 for the distributed services), Auth emulator 19097 (+1, +2).
//
// `npm run load -- --peak`: the season's peak instead (load/peak.ts, issue 45): the distributed run with
// two gateways and two user-data replicas, a reminder pass due mid-run, one replica killed mid-run.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ROUTES } from '@ct/contracts';
import collegesService from '@ct/colleges';
import { importScorecard } from '@ct/colleges/scorecard-import';
import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb } from '@ct/store';
import {
  clearRedisPrefix,
  createVerifiedUser,
  freshDatabase,
  startAuthEmulator,
  TEST_REDIS_URL,
  uniquePrefix,
  type TestDatabase,
} from '@ct/testkit';
import { spawnTs, startDistributed, stopProcess, waitForHttp } from '../scripts/lib/stack.ts';
import { LoadClient, pool, seeded, sleep, summarise, type Sample, type Stats } from './driver.ts';
import { runPeak } from './peak.ts';
import { session, setUpStudents, type Student } from './session.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DEMO_CSV = path.resolve(ROOT, '../shared/data/scorecard_institutions_demo.csv');
const TARGET_P99_MS = 100;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const BASE_PORT = Number(arg('port', '19080'));
const EMULATOR_PORT = Number(arg('emulator-port', '19097'));
const STUDENTS = Number(arg('students', '200'));
const DURATION_S = Number(arg('duration', '60'));
const PEAK = process.argv.includes('--peak');
const MODES = arg('only', 'embedded,distributed').split(',') as Array<'embedded' | 'distributed'>;
const PHASES = arg('phases', 'flat,students').split(',') as Array<'flat' | 'students'>;

interface PhaseResult {
  mode: string;
  phase: string;
  stats: Stats;
  steps: Array<[string, Stats]>;
}

async function runPhase(
  baseUrl: string,
  students: Student[],
  names: string[],
  phase: 'flat' | 'students',
  mode: string,
): Promise<PhaseResult> {
  const client = new LoadClient(baseUrl);
  const end = Date.now() + DURATION_S * 1000;
  client.recording = true;
  const started = performance.now();
  await Promise.all(
    students.map(async (s, i) => {
      const rand = seeded(1000 + i);
      const steps = session(client, s, names, rand);
      // Students do not all click at the same instant.
      if (phase === 'students') await sleep(rand() * 1000);
      for (let k = 0; Date.now() < end; k++) {
        await steps[k % steps.length]!();
        if (phase === 'students') await sleep(500 + rand() * 1000);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  client.recording = false;
  client.close();
  const byStep = new Map<string, Sample[]>();
  for (const x of client.samples) byStep.set(x.step, [...(byStep.get(x.step) ?? []), x]);
  return {
    mode,
    phase,
    stats: summarise(client.samples, seconds),
    steps: [...byStep].map(([step, xs]) => [step, summarise(xs, seconds)] as [string, Stats]),
  };
}

const f0 = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const f1 = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

function print(r: PhaseResult): void {
  const s = r.stats;
  const label = r.phase === 'flat' ? 'flat out (no think time)' : 'students (0.5-1.5 s think time)';
  console.log(`\n--- ${r.mode} run, ${label}: ${STUDENTS} students, ${f1(s.seconds)} s ---`);
  const okErr = s.errors === 0;
  const okP99 = s.p99 <= TARGET_P99_MS;
  console.log(`requests ${f0(s.requests)}   req/s ${f0(s.rps)}`);
  console.log(
    `latency ms  p50 ${f1(s.p50)}  p95 ${f1(s.p95)}  p99 ${f1(s.p99)}  max ${f1(s.max)}   target p99 <= ${TARGET_P99_MS} ${okP99 ? '[met]' : '[NOT met]'}`,
  );
  console.log(
    `errors ${s.errors}   target 0 ${okErr ? '[met]' : '[NOT met]'}   statuses ${JSON.stringify(s.byStatus)}`,
  );
  for (const [step, x] of r.steps)
    console.log(
      `  ${step.padEnd(16)} n ${f0(x.requests).padStart(7)}  p50 ${f1(x.p50).padStart(7)}  p95 ${f1(x.p95).padStart(7)}  p99 ${f1(x.p99).padStart(7)}  errors ${x.errors}`,
    );
}

/** A fresh database with the college cache: every institution of the demo CSV, as the bulk import loads it. */
async function collegeDatabase(
  label: string,
): Promise<{ database: TestDatabase; names: string[]; imported: number }> {
  const database = await freshDatabase(label);
  const db = await openDb({ url: database.url, poolMax: 4 });
  try {
    await migrateModule(db, collegesService as unknown as ServiceModule);
    const { institutions } = await importScorecard(DEMO_CSV, db);
    const names = (
      await db.query<{ name: string }>('SELECT name FROM colleges.college ORDER BY name')
    ).rows.map((r) => r.name);
    return { database, names, imported: institutions };
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const need = [
    '/get-user-colleges',
    '/update-checklist',
    '/add-note',
    '/search-college',
    '/get-college-suggestions',
  ];
  const missing = need.filter((p) => !ROUTES.some((r) => r.path === p));
  if (missing.length) throw new Error(`the route table has no ${missing.join(', ')}`);

  console.log(
    PEAK
      ? `load --peak: ${STUDENTS} students, ${DURATION_S} s`
      : `load: ${STUDENTS} students, ${DURATION_S} s per phase, runs: ${MODES.join(', ')}`,
  );
  const emulator = await startAuthEmulator({ port: EMULATOR_PORT });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  const t0 = performance.now();
  const users = await pool(
    Array.from({ length: STUDENTS }, (_, i) => i),
    16,
    (i) => createVerifiedUser({ name: `Load Student ${i + 1}` }),
  );
  console.log(`created ${users.length} verified students in ${f1((performance.now() - t0) / 1000)} s`);
  if (PEAK) {
    try {
      await runPeak({
        users,
        emulatorHost: emulator.host,
        durationS: DURATION_S,
        basePort: BASE_PORT,
        collegeDatabase,
        reminders: Number(arg('reminders', String(200 * STUDENTS))),
        remindAt: Number(arg('remind-at', '0.3')),
        killAt: Number(arg('kill-at', '0.35')),
      });
    } finally {
      await emulator.stop();
    }
    return;
  }
  const results: PhaseResult[] = [];
  try {
    for (const mode of MODES) {
      const { database, names, imported } = await collegeDatabase('load');
      const prefix = uniquePrefix('load');
      let stop: () => Promise<void> = async () => {};
      try {
        console.log(`\n=== ${mode} run: ${imported} colleges cached ===`);

        const env = {
          DATABASE_URL: database.url,
          REDIS_URL: TEST_REDIS_URL,
          QUEUE_PREFIX: prefix,
          FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
          LOG_LEVEL: 'warn',
          // The emulator is refused with NODE_ENV=production; nothing else in the server depends on it.
          NODE_ENV: 'development',
        };
        let baseUrl: string;
        if (mode === 'embedded') {
          const gw = spawnTs('gateway/src/server.ts', {
            ...env,
            GATEWAY_MODE: 'embedded',
            PORT: String(BASE_PORT),
          });
          gw.name = 'gateway (embedded)';
          stop = async () => void (await stopProcess(gw));
          await waitForHttp(`http://127.0.0.1:${BASE_PORT}/api/readyz`, 120_000, gw);
          baseUrl = `http://127.0.0.1:${BASE_PORT}`;
        } else {
          // Six service processes share the Postgres server with everything else on this machine.
          const stack = await startDistributed({
            databaseUrl: database.url,
            redisUrl: TEST_REDIS_URL,
            basePort: BASE_PORT,
            env: { ...env, DB_POOL_MAX: '5' },
          });
          stop = () => stack.stop();
          await waitForHttp(`${stack.gatewayUrl}/api/readyz`, 120_000);
          baseUrl = stack.gatewayUrl;
        }

        // Sign in every student (the identity provider, not the gateway) and give each a list to work on.
        const setup = new LoadClient(baseUrl, 60_000);
        const { students, signInMs } = await setUpStudents(users, names, () => setup);
        setup.close();
        console.log(
          `signed in ${students.length} students at the identity provider: p50 ${f1(signInMs[Math.floor(signInMs.length / 2)]!)} ms, max ${f1(signInMs.at(-1)!)} ms`,
        );
        for (const phase of PHASES) {
          const r = await runPhase(baseUrl, students, names, phase, mode);
          results.push(r);
          print(r);
        }
      } finally {
        await stop();
        await database.drop().catch(() => {});
        await clearRedisPrefix(prefix).catch(() => {});
      }
    }
  } finally {
    await emulator.stop();
  }

  console.log('\n=== summary (targets: 0 errors, p99 <= 100 ms) ===');
  console.log(
    `${'run'.padEnd(12)}${'phase'.padEnd(10)}${'req/s'.padStart(8)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}${'errors'.padStart(8)}`,
  );
  for (const r of results)
    console.log(
      `${r.mode.padEnd(12)}${r.phase.padEnd(10)}${f0(r.stats.rps).padStart(8)}${f1(r.stats.p50).padStart(8)}${f1(r.stats.p95).padStart(8)}${f1(r.stats.p99).padStart(8)}${String(r.stats.errors).padStart(8)}  ${r.stats.errors === 0 && r.stats.p99 <= TARGET_P99_MS ? '[met]' : '[NOT met]'}`,
    );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
