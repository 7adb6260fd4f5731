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
//                     [-- --phases flat,students]
// Ports: gateway 19080 (+1..+6 for the distributed services), Auth emulator 19097 (+1, +2).
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
  signIn,
  startAuthEmulator,
  TEST_REDIS_URL,
  uniquePrefix,
  type TestUser,
} from '@ct/testkit';
import { spawnTs, startDistributed, stopProcess, waitForHttp } from '../scripts/lib/stack.ts';
import { LoadClient, pool, seeded, sleep, summarise, type Sample, type Stats } from './driver.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DEMO_CSV = path.resolve(ROOT, '../shared/data/scorecard_institutions_demo.csv');
const BASE_PORT = 19080;
const EMULATOR_PORT = 19097;
const TARGET_P99_MS = 100;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const STUDENTS = Number(arg('students', '200'));
const DURATION_S = Number(arg('duration', '60'));
const MODES = arg('only', 'embedded,distributed').split(',') as Array<'embedded' | 'distributed'>;
const PHASES = arg('phases', 'flat,students').split(',') as Array<'flat' | 'students'>;

const CHECKLIST = {
  application: [
    { text: 'Create a Common App account', completed: false },
    { text: 'Ask two teachers for recommendations', completed: false },
    { text: 'Send official transcripts', completed: false },
    { text: 'Write the personal essay', completed: false },
    { text: 'Pay the application fee', completed: false },
  ],
  testing: [
    { text: 'Register for the SAT', completed: false },
    { text: 'Send scores', completed: false },
  ],
};

interface Student {
  user: TestUser;
  token: string;
  colleges: string[];
  ticks: boolean[];
  notes: string[];
}

/** One student's session, step by step; returns the steps in the order a student goes through them. */
function session(client: LoadClient, s: Student, names: string[], rand: () => number) {
  const pickName = () => names[Math.floor(rand() * names.length)]!;
  let round = 0;
  return [
    () => client.call('list colleges', 'GET', '/get-user-colleges', { token: s.token }),
    () =>
      client.call('open checklist', 'GET', '/get-college-checklist', {
        token: s.token,
        query: { collegeName: s.colleges[0]! },
      }),
    async () => {
      const i = round++ % s.ticks.length;
      const completed = !s.ticks[i];
      const r = await client.call('tick item', 'POST', '/update-checklist', {
        token: s.token,
        body: { collegeName: s.colleges[0]!, section: 'application', itemIndex: i, completed },
      });
      if (r.status === 200) s.ticks[i] = completed;
      return r;
    },
    () => {
      const name = pickName();
      const query = name.slice(0, 3 + Math.floor(rand() * 4)).toLowerCase();
      return client.call('suggestions', 'GET', '/get-college-suggestions', {
        token: s.token,
        query: { query },
      });
    },
    () =>
      client.call('search college', 'GET', '/search-college', {
        token: s.token,
        query: { name: pickName() },
      }),
    async () => {
      if (s.notes.length < 12) {
        const r = await client.call('add note', 'POST', '/add-note', {
          token: s.token,
          body: {
            note: {
              title: `Note ${s.notes.length + 1} ${Math.floor(rand() * 1e9)}`,
              content: 'Ask the counselor about the fee waiver.',
              deadline: rand() < 0.5 ? '2027-01-15' : null,
            },
          },
        });
        const id = (r.body as { data?: { id?: string } }).data?.id;
        if (r.status === 200 && id) s.notes.push(id);
        return r;
      }
      return client.call('update note', 'POST', '/update-note', {
        token: s.token,
        body: { noteId: s.notes[Math.floor(rand() * s.notes.length)]!, noteContent: `Updated ${Date.now()}` },
      });
    },
    () => client.call('read notes', 'GET', '/get-notes', { token: s.token }),
    () => client.call('read deadlines', 'GET', '/get-deadlines', { token: s.token }),
  ];
}

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

  console.log(`load: ${STUDENTS} students, ${DURATION_S} s per phase, runs: ${MODES.join(', ')}`);
  const emulator = await startAuthEmulator({ port: EMULATOR_PORT });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  const t0 = performance.now();
  const users = await pool(
    Array.from({ length: STUDENTS }, (_, i) => i),
    16,
    (i) => createVerifiedUser({ name: `Load Student ${i + 1}` }),
  );
  console.log(`created ${users.length} verified students in ${f1((performance.now() - t0) / 1000)} s`);
  const results: PhaseResult[] = [];
  try {
    for (const mode of MODES) {
      const database = await freshDatabase('load');
      const prefix = uniquePrefix('load');
      let stop: () => Promise<void> = async () => {};
      try {
        // The college cache: every institution of the demo CSV, as the bulk import loads it.
        const db = await openDb({ url: database.url, poolMax: 4 });
        await migrateModule(db, collegesService as unknown as ServiceModule);
        const imported = await importScorecard(DEMO_CSV, db);
        const names = (
          await db.query<{ name: string }>('SELECT name FROM colleges.college ORDER BY name')
        ).rows.map((r) => r.name);
        await db.close();
        console.log(`\n=== ${mode} run: ${imported.institutions} colleges cached ===`);

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
        const signInMs: number[] = [];
        const students = await pool(users, 16, async (user, i): Promise<Student> => {
          const t = performance.now();
          const token = await signIn(user.email, user.password);
          signInMs.push(performance.now() - t);
          const colleges = [0, 1, 2].map((k) => names[(i * 31 + k * 997) % names.length]!);
          for (const collegeName of colleges) {
            const r = await setup.call('setup', 'POST', '/add-user-college', {
              token,
              body: { collegeName },
            });
            if (r.status !== 200)
              throw new Error(`setup: add-user-college ${r.status} ${JSON.stringify(r.body)}`);
          }
          const r = await setup.call('setup', 'POST', '/update-checklist', {
            token,
            body: { collegeName: colleges[0], checklist: CHECKLIST },
          });
          if (r.status !== 200)
            throw new Error(`setup: update-checklist ${r.status} ${JSON.stringify(r.body)}`);
          return { user, token, colleges, ticks: CHECKLIST.application.map(() => false), notes: [] };
        });
        setup.close();
        signInMs.sort((a, b) => a - b);
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
