// Component benchmark (not in the default run): `npm run bench -- reminders` (issue 45). 100,000 students
// with a push subscription and a reminder due, on the test Postgres; a local Web Push service stand-in
// that answers each message in 50 ms; one pass with 1 worker process, then again with 2 (the index seeded
// anew), each reminder counted at the stand-in. Prints exactly the line
// `reminders: <N> due, <S1> s with 1 worker, <S2> s with 2 workers, sent once: <yes|no>`, then a pass
// with nothing due, student requests' p99 during the 1-worker pass, and the refresh rate of the index.
//
// The index is seeded as the refresh leaves it (one student worked out by the real code, its rows copied
// to every student): at the peak moment a pass only takes and sends; working the index out happens as
// students change their plans, and its rate is the last line.
import { spawn } from 'node:child_process';
import path from 'node:path';
import webpush from 'web-push';
import { startTestGateway } from '../tests/kit/src/index.ts';
import { jobReplica } from '../services/user-data/src/reminders/test-replica.ts';
import { refreshReminderIndex } from '../services/user-data/src/reminders/send-reminders.ts';
import { buildCollege, seedColleges } from '../tests/kit/src/factories.ts';
import { detail, figure, fmt } from './lib.ts';
import { deviceKeys, seedDueReminders, startPushStandIn } from './push-stand-in.ts';

export const inDefaultRun = false;
export const FIGURES = ['reminders'] as const;

const N = Number(process.env.BENCH_REMINDERS ?? 100_000);
const PUSH_MS = 50;
const INTERNAL_TOKEN = 'bench-internal-token-0123456789abcdef';
const PASS_AT = '2026-10-18T14:30:00Z';
const COLLEGE = buildCollege({
  name: 'Bench Reminder College',
  info: { deadlines: [{ type: 'Early Action', date: '2026-11-01' }] },
});

export async function run(): Promise<void> {
  const push = await startPushStandIn(PUSH_MS);
  const { received, url: pushUrl } = push;
  const vapid = webpush.generateVAPIDKeys();
  const env = {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_SERVICE_HOSTS: pushUrl,
  };
  const step = (what: string) => process.env.BENCH_DEBUG && console.error(`[reminders] ${what}`);
  step('starting');
  const gw = await startTestGateway({
    queue: 'memory',
    env: { RUN_WORKER: 'false', REMINDER_EVERY_MS: '0', INTERNAL_TOKEN, ...env },
  });
  try {
    const db = gw.db;
    // One real student, worked out by the refresh: the rows every seeded student gets.
    const deps = jobReplica(db, env, [COLLEGE]);
    step('gateway up');
    await seedColleges(db, [COLLEGE]);
    const added = await gw.api('POST', '/api/add-user-college', {
      internal: { uid: 'model', email: null, emailVerified: true, name: 'Model' },
      body: { collegeName: COLLEGE.name },
    });
    if (added.status !== 200)
      throw new Error(`add-user-college: ${added.status} ${JSON.stringify(added.body)}`);
    const device = deviceKeys();
    await db.query(
      `INSERT INTO user_data.push_subscription (endpoint, user_id, p256dh, auth) VALUES ($1, 'model', $2, $3)`,
      [`${pushUrl}/push/model`, device.p256dh, device.auth],
    );
    step('model added');
    await refreshReminderIndex(deps, new Date(PASS_AT), Date.now() + 60_000);
    step('model worked out');
    const model = await db.query<{ deadline_key: string; lead_days: number; due_at: Date; payload: unknown }>(
      `SELECT deadline_key, lead_days, due_at, payload FROM user_data.reminder_due
       WHERE user_id = 'model' AND due_at <= $1 ORDER BY due_at DESC LIMIT 1`,
      [PASS_AT],
    );
    const row = model.rows[0];
    if (!row) throw new Error('the refresh found no reminder due for the model student');

    /** The index as the refresh leaves it for N students, each with one device and one reminder due. */
    const seed = async (dueAt: string) => {
      step('seeding');
      // DELETE, not TRUNCATE: TRUNCATE waits for every lock on the tables (the service's own pool).
      await db.exec(
        `DELETE FROM user_data.reminder_due; DELETE FROM user_data.reminder_sent;
         DELETE FROM user_data.push_subscription; DELETE FROM user_data.reminder_stale`,
      );
      await seedDueReminders(db, { pushUrl, device, n: N, prefix: 'student-', row, dueAt });
      received.clear();
      step('seeded');
    };

    const latencies: number[] = [];
    let passing = false;
    const pass = async (workers: number, during?: () => Promise<void>) => {
      const procs = Array.from({ length: workers }, () =>
        spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'reminders-worker.ts')], {
          env: { ...process.env, ...env, DATABASE_URL: gw.database!.url, PASS_AT },
          stdio: ['pipe', 'pipe', 'inherit'],
        }),
      );
      const ready: Array<Promise<void>> = [];
      const lines = procs.map((p) => {
        let onReady!: () => void;
        ready.push(new Promise<void>((r) => (onReady = r)));
        return new Promise<string[]>((resolve) => {
          const out: string[] = [];
          let buf = '';
          p.stdout!.on('data', (b: Buffer) => {
            buf += b.toString();
            const parts = buf.split('\n');
            buf = parts.pop()!;
            out.push(...parts);
            if (parts.includes('ready')) onReady();
          });
          p.once('exit', () => {
            onReady();
            resolve(out);
          });
        });
      });
      await Promise.all(ready);
      for (const p of procs) p.stdin!.write('go\n');
      const measuring = during?.();
      const results = (await Promise.all(lines)).map(
        (l) =>
          JSON.parse(l.find((x) => x.startsWith('{'))!) as { sent: number; started: number; ended: number },
      );
      passing = false;
      await measuring;
      const seconds =
        (Math.max(...results.map((r) => r.ended)) - Math.min(...results.map((r) => r.started))) / 1000;
      return { seconds, sent: results.reduce((a, r) => a + r.sent, 0) };
    };
    const sentOnce = () => received.size === N && [...received.values()].every((n) => n === 1);

    // A student reading their list while the pass runs (10 colleges, as the serving benchmark's).
    await db.query(
      `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
       SELECT 'reader', 'college ' || c, 'College ' || c, '{}'::json FROM generate_series(1, 10) c`,
    );
    const readWhilePassing = async () => {
      passing = true;
      while (passing) {
        const t = performance.now();
        await gw.api('GET', '/api/get-user-colleges', {
          internal: { uid: 'reader', email: null, emailVerified: true, name: 'Reader' },
        });
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    await seed(PASS_AT);
    const one = await pass(1, readWhilePassing);
    const once1 = sentOnce();
    await seed(PASS_AT);
    const two = await pass(2);
    const once2 = sentOnce();
    const s1 = one.seconds;
    const s2 = two.seconds;
    const line = `reminders: ${fmt(N)} due, ${fmt(s1, 1)} s with 1 worker, ${fmt(s2, 1)} s with 2 workers, sent once: ${once1 && once2 ? 'yes' : 'no'}`;
    console.log(line);
    figure('reminders: 1 worker, one pass', `${fmt(s1, 1)} s`, { target: '≤ 120 s', met: s1 <= 120 });
    figure('reminders: 2 workers vs 1', `${fmt(s2 / s1, 2)}×`, { target: '≤ 0.65×', met: s2 <= 0.65 * s1 });
    figure('reminders: each sent once', once1 && once2 ? 'yes' : 'no', {
      target: 'yes',
      met: once1 && once2,
    });

    // Nothing due: every student has a reminder, a week away.
    await seed('2026-10-25T14:00:00Z');
    const idle = await pass(1);
    console.log(`reminders: nothing due for ${fmt(N)} students: ${fmt(idle.seconds, 3)} s`);
    figure('reminders: a pass with nothing due', `${fmt(idle.seconds, 3)} s`, {
      target: '< 1 s',
      met: idle.seconds < 1,
    });

    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? NaN;
    console.log(
      `reminders: student requests during the pass: p99 ${fmt(p99, 1)} ms (${latencies.length} requests)`,
    );
    figure('reminders: get-user-colleges p99 during the pass', `${fmt(p99, 1)} ms`, {
      target: '≤ 100 ms',
      met: p99 <= 100,
    });

    // The index's refresh: students worked out per second (each: their list, plan, deadlines, devices).
    const R = 2_000;
    await db.exec(
      `DELETE FROM user_data.reminder_due; DELETE FROM user_data.reminder_sent;
       DELETE FROM user_data.push_subscription; DELETE FROM user_data.reminder_stale`,
    );
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(
        `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
         SELECT 'fresh-' || i, c.college_key, c.college_name, c.checklist
         FROM generate_series(1, $1::int) i, user_data.user_college c WHERE c.user_id = 'model'`,
        [R],
      );
      await tx.query(
        `INSERT INTO user_data.push_subscription (endpoint, user_id, p256dh, auth)
         SELECT $1 || '/push/fresh-' || i, 'fresh-' || i, $2, $3 FROM generate_series(1, $4::int) i`,
        [pushUrl, device.p256dh, device.auth, R],
      );
      // Marked as the triggers would have marked them.
      await tx.query(
        `INSERT INTO user_data.reminder_stale (user_id) SELECT 'fresh-' || i FROM generate_series(1, $1::int) i`,
        [R],
      );
    });
    const t = performance.now();
    const worked = await refreshReminderIndex(deps, new Date(PASS_AT), Date.now() + 600_000);
    const rate = worked / ((performance.now() - t) / 1000);
    detail('reminder index refresh (one process)', `${fmt(rate)} students/s`);
  } finally {
    await gw.close();
    await push.close();
  }
}
