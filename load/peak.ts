// `npm run load -- --peak` (issue 45): the season's peak on the distributed run, against real Postgres and
// Redis and the Auth emulator. Two gateway processes and two user-data replicas (the other services one
// each); every caller reaches the user-data replicas through its service pool (USER_DATA_SERVICE_URL lists
// both). Students are spread over the two gateways and go round their session with a think time of
// 0.5-1.5 s. Meanwhile:
//  - a reminder pass comes due: `--reminders` other students (default 200 per load student), each with a
//    phone whose push service is a local stand-in answering in 50 ms, have a reminder due at
//    `--remind-at` of the run (default 0.3); each replica runs its reminder timer (every second here), as
//    in production, and the replicas share the due reminders through the index's claims;
//  - at `--kill-at` of the run (default 0.35, while the replicas push the reminders) one user-data
//    replica is killed (SIGKILL); the reminders it had taken but not pushed go from the other replica when
//    their lease (10 s here) runs out.
//
// The client sends a call again when it failed because its replica died with it in flight: no answer
// (connection reset), or the gateway's 502/503 for an upstream that dropped it, within 15 s of the kill.
// Sending again is safe for every step: reads change nothing; a tick sets the item to a given state and
// an update sets a note's content to a given text (both the same after one or two sends); a new note
// carries an Idempotency-Key, so the service applies it once and answers a repeat with the kept reply
// (while the dead replica's claim on the key is pending, the repeat is answered 409 "still being saved"
// and the client waits and sends it again, until the claim is given up after a minute).
//
// Afterwards every acknowledged write is read back (each note's existence and last acknowledged text,
// each checklist item's last acknowledged tick), and the stand-in says which reminders came and how many
// times. Printed: req/s, p50/p99, errors other than those retried, retried in flight, acknowledged writes
// checked / lost, reminders due / sent / twice. Targets: 0 errors, 0 lost, all reminders sent, 0 twice.
import webpush from 'web-push';
import { openDb } from '@ct/store';
import {
  clearRedisPrefix,
  TEST_REDIS_URL,
  uniquePrefix,
  type TestDatabase,
  type TestUser,
} from '@ct/testkit';
import { reminderPayload } from '../services/user-data/src/reminders/send-reminders.ts';
import { seedDueReminders, deviceKeys, startPushStandIn } from '../bench/push-stand-in.ts';
import { startDistributed, waitForHttp, type RunningProcess } from '../scripts/lib/stack.ts';
import { LoadClient, seeded, sleep, summarise, type CallResult, type Sample } from './driver.ts';
import { session, setUpStudents, type Caller, type Student } from './session.ts';

export interface PeakOptions {
  users: TestUser[];
  emulatorHost: string;
  durationS: number;
  basePort: number;
  collegeDatabase: (label: string) => Promise<{ database: TestDatabase; names: string[]; imported: number }>;
  /** Students with a reminder due mid-run. */
  reminders: number;
  /** When the reminders come due, and when the replica is killed, as fractions of the run. */
  remindAt: number;
  killAt: number;
}

/** The stand-in answers each message in this long, as the reminders benchmark's does. */
const PUSH_MS = 50;
/** A failure this long after the kill is the kill's; any other failure is an error. */
const IN_FLIGHT_WINDOW_MS = 15_000;
/** How long a repeated new note may wait for the dead replica's claim on its key to be given up. */
const CLAIM_WAIT_MS = 75_000;
const REMINDER_PREFIX = 'peak-reminder-';
const KILLED = 'user-data-2';

const f0 = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const f1 = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const mark = (ok: boolean) => (ok ? '[met]' : '[NOT met]');

/**
 * A caller that sends a call again when its replica died with it in flight (see the file's comment), and
 * marks each failed attempt it sent again as retried, so it is counted apart from errors.
 */
class RetryingCaller implements Caller {
  retried = 0;
  constructor(
    private readonly client: LoadClient,
    private readonly killedAt: () => number | null,
  ) {}

  async call(...args: Parameters<LoadClient['call']>): Promise<CallResult> {
    const [, method, path, opts] = args;
    const repeatable =
      method === 'GET' || path !== '/add-note' || Boolean(opts?.headers?.['idempotency-key']);
    let sent = 0;
    for (;;) {
      const r = await this.client.call(...args);
      sent++;
      const killed = this.killedAt();
      const since = killed === null ? Infinity : Date.now() - killed;
      const code = (r.body as { code?: string } | null)?.code;
      const dropped =
        r.status === 0 || r.status === 502 || (r.status === 503 && code === 'DEPENDENCY_UNAVAILABLE');
      // A repeat of a new note whose first send died on the replica after it claimed the note's key.
      const pending = sent > 1 && r.status === 409 && code === 'CONFLICT' && since <= CLAIM_WAIT_MS;
      if (!repeatable || !((dropped && since <= IN_FLIGHT_WINDOW_MS) || pending)) return r;
      if (r.sample) r.sample.retried = true;
      this.retried++;
      await sleep(pending ? 1000 : 100);
    }
  }
}

export async function runPeak(o: PeakOptions): Promise<void> {
  const { database, names, imported } = await o.collegeDatabase('peak');
  const prefix = uniquePrefix('peak');
  const push = await startPushStandIn(PUSH_MS, o.basePort + 30);
  const vapid = webpush.generateVAPIDKeys();
  const replicaLines = new Map<string, number>();
  let stack: Awaited<ReturnType<typeof startDistributed>> | null = null;
  try {
    console.log(`\n=== peak run: ${imported} colleges cached; starting 2 gateways, 2 user-data replicas ===`);
    stack = await startDistributed({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      basePort: o.basePort,
      replicas: { 'user-data': 2 },
      gateways: 2,
      env: {
        DATABASE_URL: database.url,
        QUEUE_PREFIX: prefix,
        FIREBASE_AUTH_EMULATOR_HOST: o.emulatorHost,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        DB_POOL_MAX: '5',
        // Every replica signs with the same pair, as several replicas must.
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        PUSH_SERVICE_HOSTS: push.url,
        REMINDER_EVERY_MS: '1000',
        // A reminder the killed replica had taken goes from the other one when its lease runs out: 10 s
        // here, so within the run (3 min by default, past every push's timeouts).
        REMINDER_LEASE_MS: '10000',
      },
      // Each replica's "deadline reminders sent" line says how many it sent.
      serviceEnv: { 'user-data': { LOG_LEVEL: 'info' } },
    });
    const gateways = stack.gatewayUrls ?? [stack.gatewayUrl];
    await Promise.all(gateways.map((g) => waitForHttp(`${g}/api/readyz`, 120_000)));
    const replicas = stack.processes.filter((p) => p.name.startsWith('user-data'));
    console.log(
      `up: ${stack.processes.map((p) => `${p.name}:${p.port}`).join(', ')}; USER_DATA_SERVICE_URL=${stack.env.USER_DATA_SERVICE_URL}`,
    );

    let killedAt: number | null = null;
    const clients = gateways.map((g) => new LoadClient(g, 60_000));
    const callers = clients.map((c) => new RetryingCaller(c, () => killedAt));
    const { students, signInMs } = await setUpStudents(o.users, names, (i) => callers[i % callers.length]!);
    console.log(
      `signed in and set up ${students.length} students over ${gateways.length} gateways (sign-in p50 ${f1(signInMs[Math.floor(signInMs.length / 2)]!)} ms)`,
    );

    // The reminders, as the index's refresh would have left them: seeded a year ahead, then brought to
    // `remindAt` of the run just before it starts.
    const deadline = {
      collegeName: 'Peak Reminder College',
      kind: 'Early Action',
      date: '2026-11-01',
      dueAt: new Date('2026-11-02T03:59:00Z'),
      zone: 'America/New_York',
    };
    const db = await openDb({ url: database.url, poolMax: 2 });
    let dueAt: Date;
    let loadStart: number;
    try {
      await seedDueReminders(db, {
        pushUrl: push.url,
        device: deviceKeys(),
        n: o.reminders,
        prefix: REMINDER_PREFIX,
        row: {
          deadline_key: `${deadline.collegeName}|${deadline.kind}|${deadline.dueAt.toISOString()}`,
          lead_days: 7,
          payload: reminderPayload(deadline, 7),
        },
        dueAt: new Date(Date.now() + 365 * 86_400_000),
      });
      loadStart = Date.now();
      dueAt = new Date(loadStart + o.remindAt * o.durationS * 1000);
      await db.query('UPDATE user_data.reminder_due SET due_at = $1 WHERE user_id LIKE $2', [
        dueAt,
        `${REMINDER_PREFIX}%`,
      ]);
    } finally {
      await db.close();
    }

    // The run: students over both gateways, the kill at `killAt`.
    const end = loadStart + o.durationS * 1000;
    const killAt = loadStart + o.killAt * o.durationS * 1000;
    const victim = replicas.find((p) => p.name === KILLED)!;
    const killer = (async () => {
      await sleep(killAt - Date.now());
      victim.child.kill('SIGKILL');
      killedAt = Date.now();
    })();
    for (const c of clients) c.recording = true;
    const t0 = performance.now();
    await Promise.all(
      students.map(async (s, i) => {
        const rand = seeded(1000 + i);
        const steps = session(callers[i % callers.length]!, s, names, rand, { writeIds: true });
        await sleep(rand() * 1000);
        for (let k = 0; Date.now() < end; k++) {
          await steps[k % steps.length]!();
          await sleep(500 + rand() * 1000);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    for (const c of clients) c.recording = false;
    await killer;

    // Reminders still on their way (a lease of the killed replica's) get a little longer.
    for (let waited = 0; push.received.size < o.reminders && waited < 30_000; waited += 250) await sleep(250);

    // Every acknowledged write, read back through the gateways.
    const check = await readBack(students, callers);
    for (const c of clients) c.close();

    const samples: Sample[] = clients.flatMap((c) => c.samples);
    const stats = summarise(samples, seconds);
    const retried = callers.reduce((a, c) => a + c.retried, 0);
    const twice = [...push.received.values()].filter((n) => n > 1).length;
    const firstTimes = [...push.firstAt.values()];
    const sentBy = sentPerReplica(replicas);
    for (const [k, v] of sentBy) replicaLines.set(k, v);
    const acked = students.reduce(
      (a, s) => ({
        added: a.added + s.acked.added,
        updated: a.updated + s.acked.updated,
        ticks: a.ticks + s.acked.ticks,
      }),
      { added: 0, updated: 0, ticks: 0 },
    );
    const at = (t: number) => `+${f1((t - loadStart) / 1000)} s`;

    console.log(
      `\n--- peak run: ${students.length} students over ${gateways.length} gateways, 2 user-data replicas, ${f1(seconds)} s ---`,
    );
    console.log(`${KILLED} killed (SIGKILL) at ${killedAt ? at(killedAt) : 'never'}`);
    console.log(
      `requests ${f0(stats.requests)}   req/s ${f0(stats.rps)}   statuses ${JSON.stringify(stats.byStatus)}`,
    );
    console.log(
      `latency ms  p50 ${f1(stats.p50)}  p95 ${f1(stats.p95)}  p99 ${f1(stats.p99)}  max ${f1(stats.max)}`,
    );
    console.log(
      `errors ${stats.errors} (other than those retried in flight)   target 0 ${mark(stats.errors === 0)}   retried in flight ${retried}`,
    );
    console.log(
      `acknowledged writes ${f0(acked.added + acked.updated + acked.ticks)} (notes added ${acked.added}, notes updated ${acked.updated}, ticks ${acked.ticks}); ` +
        `read back: ${check.checked} facts checked (${check.notes} notes, ${check.items} checklist items; ${check.unknown} left out, their last write unanswered), ` +
        `lost ${check.lost}   target 0 ${mark(check.lost === 0 && check.readErrors === 0)}${check.readErrors ? `   read-back errors ${check.readErrors}` : ''}`,
    );
    if (check.duplicates) console.log(`notes added twice (same title): ${check.duplicates}`);
    const sent = push.received.size;
    console.log(
      `reminders due ${f0(o.reminders)} at ${at(dueAt.getTime())}: sent ${f0(sent)}` +
        (firstTimes.length
          ? ` (first ${at(Math.min(...firstTimes))}, last ${at(Math.max(...firstTimes))})`
          : '') +
        `, twice ${twice}   target all sent, 0 twice ${mark(sent === o.reminders && twice === 0)}`,
    );
    // A push in flight when its replica died is sent again by the other one (ADR 0106): with the first's
    // Topic, which replaces it at a push service and, by its tag, on the phone.
    console.log(
      `reminders sent again: ${twice}, each with the first's Topic and tag; shown twice on a phone: ${push.shownAgain.size}`,
    );
    console.log(
      `reminders sent per replica (from their logs): ${[...replicaLines].map(([k, v]) => `${k} ${v}`).join(', ') || 'none logged'}`,
    );
    console.log('\n=== peak summary ===');
    console.log(
      `req/s ${f0(stats.rps)}  p50 ${f1(stats.p50)} ms  p99 ${f1(stats.p99)} ms  errors ${stats.errors}  retried in flight ${retried}  ` +
        `acknowledged writes checked ${check.checked} / lost ${check.lost}  reminders due ${o.reminders} / sent ${sent} / twice ${twice} / shown twice ${push.shownAgain.size}`,
    );
  } finally {
    await stack?.stop();
    await push.close();
    await database.drop().catch(() => {});
    await clearRedisPrefix(prefix).catch(() => {});
  }
}

/** Reads every student's notes and first checklist back and compares them with what was acknowledged. */
async function readBack(students: Student[], callers: Caller[]) {
  const out = { checked: 0, notes: 0, items: 0, unknown: 0, lost: 0, duplicates: 0, readErrors: 0 };
  await Promise.all(
    students.map(async (s, i) => {
      const caller = callers[i % callers.length]!;
      const notes = await caller.call('read back', 'GET', '/get-notes', { token: s.token });
      const list = (notes.body as { notes?: Array<{ id: string; title: string; content: string }> }).notes;
      if (notes.status !== 200 || !list) {
        out.readErrors++;
        return;
      }
      const byId = new Map(list.map((n) => [n.id, n]));
      for (const [id, text] of s.noteText) {
        out.notes++;
        const n = byId.get(id);
        if (!n) {
          out.lost++;
          out.checked++;
          continue;
        }
        out.checked++;
        if (text === null) out.unknown++;
        else {
          out.checked++;
          if (n.content !== text) out.lost++;
        }
      }
      const titles = list.map((n) => n.title);
      out.duplicates += titles.length - new Set(titles).size;
      const cl = await caller.call('read back', 'GET', '/get-college-checklist', {
        token: s.token,
        query: { collegeName: s.colleges[0]! },
      });
      const items = (cl.body as { checklist?: { application?: Array<{ completed?: boolean }> } }).checklist
        ?.application;
      if (cl.status !== 200 || !items) {
        out.readErrors++;
        return;
      }
      s.ticks.forEach((tick, k) => {
        out.items++;
        if (!s.tickKnown[k]) return void out.unknown++;
        out.checked++;
        if (Boolean(items[k]?.completed) !== tick) out.lost++;
      });
    }),
  );
  return out;
}

/** Reminders each user-data replica says it sent ("deadline reminders sent" lines, summed). */
function sentPerReplica(replicas: RunningProcess[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of replicas) {
    let n = 0;
    for (const line of p.output().split('\n')) {
      if (!line.includes('deadline reminders sent')) continue;
      try {
        n += (JSON.parse(line) as { sent?: number }).sent ?? 0;
      } catch {
        /* not a JSON line */
      }
    }
    out.set(p.name, n);
  }
  return out;
}
