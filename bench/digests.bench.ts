// Component benchmark (not in the default run): `npm run bench -- digests` (issue 45). 100,000 students
// with the weekly e-mail on and their Monday 8 am come, each with a college whose deadline is ahead, on the
// test Postgres; a local SMTP relay stand-in that accepts each message after 20 ms; one pass of one worker
// process, each message counted at the stand-in by recipient. Prints exactly the line
// `digests: <N> due, <S> s, sent once: <yes|no>`, then the pass with nothing due (every student's e-mail a
// week away).
//
// The students are seeded as the service leaves them (one student added through the API, their list row
// copied to every student; settings and index rows as the settings' trigger writes them), in one
// transaction with the triggers off. Each e-mail is worked out for real: the student's deadlines from the
// one deadline answer, then one message to the relay.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { startTestGateway } from '../tests/kit/src/index.ts';
import { buildCollege, seedColleges } from '../tests/kit/src/factories.ts';
import { detail, figure, fmt } from './lib.ts';

export const inDefaultRun = false;
export const FIGURES = ['digests'] as const;

const N = Number(process.env.BENCH_DIGESTS ?? 100_000);
/** How long the relay stand-in takes to accept a message (after its data arrived). */
const SMTP_MS = 20;
const INTERNAL_TOKEN = 'bench-internal-token-0123456789abcdef';
// Monday 2026-10-19, 8:30 am in Chicago; Early Action is due Sunday 2026-11-01.
const PASS_AT = '2026-10-19T13:30:00Z';
const COLLEGE = buildCollege({
  name: 'Bench Digest College',
  info: { deadlines: [{ type: 'Early Action', date: '2026-11-01' }] },
});

export async function run(): Promise<void> {
  const received = new Map<string, number>();
  const smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      stream.resume();
      stream.on('end', () => {
        for (const r of session.envelope.rcptTo) received.set(r.address, (received.get(r.address) ?? 0) + 1);
        setTimeout(() => cb(), SMTP_MS);
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  const step = (what: string) => process.env.BENCH_DEBUG && console.error(`[digests] ${what}`);
  step('starting');
  const gw = await startTestGateway({
    queue: 'memory',
    env: { RUN_WORKER: 'false', REMINDER_EVERY_MS: '0', INTERNAL_TOKEN },
  });
  try {
    const db = gw.db;
    await seedColleges(db, [COLLEGE]);
    const added = await gw.api('POST', '/api/add-user-college', {
      internal: { uid: 'model', email: null, emailVerified: true, name: 'Model' },
      body: { collegeName: COLLEGE.name },
    });
    if (added.status !== 200)
      throw new Error(`add-user-college: ${added.status} ${JSON.stringify(added.body)}`);
    step('model added');

    // Every student's list: the model's row. Once: the passes below do not change lists.
    await db.transaction(async (tx) => {
      // Triggers off: each row's deleted-account check takes an advisory lock, and 100,000 of them in one
      // transaction overflow Postgres's lock table. The rows are what the service would have written.
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(
        `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
         SELECT 'student-' || i, c.college_key, c.college_name, c.checklist
         FROM generate_series(1, $1::int) i, user_data.user_college c WHERE c.user_id = 'model'`,
        [N],
      );
      await tx.query(
        `INSERT INTO user_data.digest_settings (user_id, enabled, email, zone, stop_token)
         SELECT 'student-' || i, true, 'student-' || i || '@bench.test', 'America/Chicago',
                md5('stop' || i) || md5('token' || i)
         FROM generate_series(1, $1::int) i`,
        [N],
      );
    });
    /** Every student's e-mail due at `dueAt` in the index, none sent yet. */
    const seed = async (dueAt: string) => {
      step('seeding');
      // DELETE, not TRUNCATE: TRUNCATE waits for every lock on the tables (the service's own pool).
      await db.exec('DELETE FROM user_data.digest_sent; DELETE FROM user_data.digest_due');
      await db.query(
        `INSERT INTO user_data.digest_due (user_id, due_at)
         SELECT user_id, $1 FROM user_data.digest_settings WHERE user_id LIKE 'student-%'`,
        [dueAt],
      );
      await db.exec(
        'ANALYZE user_data.digest_due; ANALYZE user_data.digest_settings; ANALYZE user_data.user_college',
      );
      received.clear();
      step('seeded');
    };

    const pass = async () => {
      const proc = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(import.meta.dirname, 'digests-worker.ts')],
        {
          env: {
            ...process.env,
            DATABASE_URL: gw.database!.url,
            SMTP_URL: smtpUrl,
            PASS_AT,
            BENCH_COLLEGES: JSON.stringify([COLLEGE]),
          },
          stdio: ['pipe', 'pipe', 'inherit'],
        },
      );
      let onReady!: () => void;
      const ready = new Promise<void>((r) => (onReady = r));
      const lines = new Promise<string[]>((resolve) => {
        const out: string[] = [];
        let buf = '';
        proc.stdout.on('data', (b: Buffer) => {
          buf += b.toString();
          const parts = buf.split('\n');
          buf = parts.pop()!;
          out.push(...parts);
          if (parts.includes('ready')) onReady();
        });
        proc.once('exit', () => {
          onReady();
          resolve(out);
        });
      });
      await ready;
      proc.stdin.write('go\n');
      const line = (await lines).find((x) => x.startsWith('{'));
      if (!line) throw new Error('the digest worker printed no result');
      const r = JSON.parse(line) as { sent: number; failed: number; started: number; ended: number };
      return { ...r, seconds: (r.ended - r.started) / 1000 };
    };

    // Due: every student's Monday 8 am (13:00 UTC in Chicago) came half an hour ago.
    await seed('2026-10-19T13:00:00Z');
    const due = await pass();
    const once = received.size === N && [...received.values()].every((n) => n === 1) && due.sent === N;
    console.log(`digests: ${fmt(N)} due, ${fmt(due.seconds, 1)} s, sent once: ${once ? 'yes' : 'no'}`);
    figure('digests: one pass, 1 worker', `${fmt(due.seconds, 1)} s`);
    figure('digests: each sent once', once ? 'yes' : 'no', { target: 'yes', met: once });
    detail('weekly e-mails per second (1 worker process)', fmt(N / due.seconds));

    // Nothing due: every student's e-mail is next Monday's.
    await seed('2026-10-26T13:00:00Z');
    const idle = await pass();
    console.log(`digests: nothing due for ${fmt(N)} students: ${fmt(idle.seconds, 3)} s`);
    figure('digests: a pass with nothing due', `${fmt(idle.seconds, 3)} s`, {
      target: '< 1 s',
      met: idle.seconds < 1 && idle.sent === 0,
    });
  } finally {
    await gw.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  }
}
