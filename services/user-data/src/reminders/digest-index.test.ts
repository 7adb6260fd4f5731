// Issue 45: the weekly e-mail fans out from an index, as the reminders do. The index follows the settings
// that decide when the e-mail goes (on or off, the zone), a pass with nothing due reads the index and no
// student, and two replicas running the pass at the same moment send each student's e-mail once.
import {
  createVerifiedUser,
  startFakeSmtpServer,
  startTestGateway,
  type FakeSmtpServer,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import type { Db, Queryable } from '@ct/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../deps.ts';
import { collegeWith, seedColleges } from '../routes/test-helpers.ts';
import { sendDueDigests, smtpSender } from './send-digests.ts';
import { jobReplica } from './test-replica.ts';

let gw: TestGateway;
let smtp: FakeSmtpServer;
const COLLEGE = 'Weekly Index College';
const college = collegeWith(COLLEGE);
// Early Action is due Sunday 2026-11-01 (Central Time). Monday 8 am is 13:00 UTC in Chicago and 15:00 UTC
// in Los Angeles until November 1, an hour later after it.
const MONDAY_CHICAGO = new Date('2026-10-19T13:30:00Z');

beforeAll(async () => {
  smtp = await startFakeSmtpServer();
  gw = await startTestGateway({ queue: 'memory', env: { REMINDER_EVERY_MS: '0', SMTP_URL: smtp.url } });
  await seedColleges(gw.db, [college]);
});
afterAll(async () => {
  await gw?.close();
  await smtp?.close();
});

const replica = (db: Db = gw.db) => jobReplica(db, { SMTP_URL: smtp.url }, [college]);
/** One pass of `deps` at `now`, through the relay; `batch` and `concurrency` as a test wants them. */
async function run(deps: Deps, now: Date, opts: { batch?: number; concurrency?: number } = {}) {
  const mail = smtpSender(smtp.url, 'deadlines@college-ready.app');
  try {
    return await sendDueDigests(deps, mail.send, now, opts);
  } finally {
    mail.close();
  }
}

async function student(name: string, zone = 'America/Chicago'): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
  expect((await setDigest(user, { enabled: true, zone })).status).toBe(200);
  return user;
}
const setDigest = (user: TestUser, body: { enabled: boolean; zone?: string }) =>
  gw.api('POST', '/api/update-digest-settings', { token: user.idToken, body });
const mailsTo = (user: TestUser) => smtp.received.filter((m) => m.to.includes(user.email));
/** When the index says the student's e-mail is looked at next: "next pass", a UTC minute, or null (off). */
async function dueOf(user: TestUser): Promise<string | null> {
  const r = await gw.db.query<{ due: string }>(
    `SELECT CASE WHEN due_at = '-infinity' THEN 'next pass'
                 ELSE to_char(due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') END AS due
     FROM user_data.digest_due WHERE user_id = $1`,
    [user.uid],
  );
  return r.rows[0]?.due ?? null;
}

/** The database, recording every statement run through it (in transactions too). */
function recording(db: Db): { db: Db; statements: Array<{ sql: string; params: readonly unknown[] }> } {
  const statements: Array<{ sql: string; params: readonly unknown[] }> = [];
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params = []) => {
      statements.push({ sql, params });
      return q.query(sql, params);
    },
    exec: (sql) => {
      statements.push({ sql, params: [] });
      return q.exec(sql);
    },
  });
  return {
    statements,
    db: {
      ...wrap(db),
      kind: db.kind,
      transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
      ping: () => db.ping(),
      close: () => db.close(),
    },
  };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

describe('the weekly e-mail index', () => {
  it('follows a change of time zone and an opt-out', async () => {
    const user = await student('Tess');
    // Turned on: looked at by the next pass, which sends this week's and moves it to next Monday 8 am.
    expect(await dueOf(user)).toBe('next pass');
    expect((await run(replica(), MONDAY_CHICAGO)).sent).toBeGreaterThanOrEqual(1);
    expect(mailsTo(user)).toHaveLength(1);
    expect(await dueOf(user)).toBe('2026-10-26T13:00Z');
    // She moves to Los Angeles: her next e-mail is 8 am there, not in Chicago.
    await setDigest(user, { enabled: true, zone: 'America/Los_Angeles' });
    expect(await dueOf(user)).toBe('next pass');
    await run(replica(), new Date('2026-10-20T12:00:00Z'));
    expect(await dueOf(user)).toBe('2026-10-26T15:00Z');
    await run(replica(), new Date('2026-10-26T13:30:00Z')); // 8:30 in Chicago, 6:30 in Los Angeles
    expect(mailsTo(user)).toHaveLength(1);
    await run(replica(), new Date('2026-10-26T15:10:00Z'));
    expect(mailsTo(user)).toHaveLength(2);
    // After November 1 Los Angeles keeps standard time: 8 am is 16:00 UTC.
    expect(await dueOf(user)).toBe('2026-11-02T16:00Z');
    // Off: out of the index, and the next Monday sends nothing.
    await setDigest(user, { enabled: false });
    expect(await dueOf(user)).toBeNull();
    await run(replica(), new Date('2026-11-02T16:30:00Z'));
    expect(mailsTo(user)).toHaveLength(2);
    // On again on Monday morning: the next pass sends that week's.
    await setDigest(user, { enabled: true, zone: 'America/Los_Angeles' });
    expect(await dueOf(user)).toBe('next pass');
    await run(replica(), new Date('2026-11-02T16:45:00Z'));
    expect(mailsTo(user)).toHaveLength(3);
    // The e-mail's stop link takes it out of the index too.
    const token = /\/email-digest\/stop\/([A-Za-z0-9_-]+)/.exec(mailsTo(user)[2]!.text)![1]!;
    expect((await gw.api('POST', '/api/stop-digest', { body: { token } })).status).toBe(200);
    expect(await dueOf(user)).toBeNull();
  });

  it("sends each student's e-mail once when two replicas run the pass at the same moment", async () => {
    const users = await Promise.all(Array.from({ length: 12 }, (_, i) => student(`Twin ${i}`)));
    const before = smtp.received.length;
    // Small batches and few sends at once, so the replicas interleave their takes.
    const week = new Date('2026-10-19T14:00:00Z');
    const [a, b] = await Promise.all([
      run(replica(), week, { batch: 3, concurrency: 2 }),
      run(replica(), week, { batch: 3, concurrency: 2 }),
    ]);
    expect(a.sent + b.sent).toBe(users.length);
    const got = smtp.received.slice(before).flatMap((m) => m.to);
    expect(got.sort()).toEqual(users.map((u) => u.email.toLowerCase()).sort());
    // Again, from two more replicas: nothing more.
    const again = await Promise.all([run(replica(), week), run(replica(), week)]);
    expect(again.map((r) => r.sent)).toEqual([0, 0]);
    for (const u of users) expect(mailsTo(u)).toHaveLength(1);
  });

  it('a pass with nothing due reads the index, one indexed query, and no student', async () => {
    // Thousands of students whose e-mail is due next Monday, beside the ones above.
    await gw.db.query(
      `INSERT INTO user_data.digest_due (user_id, due_at)
       SELECT 'idle-' || i, '2026-10-26T13:00:00Z' FROM generate_series(1, 5000) i`,
    );
    await gw.db.exec('ANALYZE user_data.digest_due');
    try {
      const { db, statements } = recording(gw.db);
      const r = await run(replica(db), new Date('2026-10-21T12:00:00Z')); // a Wednesday
      expect(r).toMatchObject({ sent: 0, failed: 0, deferred: false });
      expect(statements).toHaveLength(1);
      const [take] = statements;
      expect(take!.sql).toMatch(/FROM user_data\.digest_due\b/);
      expect(take!.sql).not.toMatch(/digest_settings|user_college/);
      const plan = await gw.db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${take!.sql}`,
        take!.params,
      );
      const nodes = nodesOf(plan.rows[0]!['QUERY PLAN'][0]!.Plan);
      const scan = nodes.find((n) => n['Relation Name'] === 'digest_due');
      expect(scan).toMatchObject({
        'Node Type': 'Index Scan',
        'Index Name': 'digest_due_at_idx',
        'Actual Rows': 0,
      });
      expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
    } finally {
      await gw.db.query(`DELETE FROM user_data.digest_due WHERE user_id LIKE 'idle-%'`);
    }
  });

  it('tries a message the relay refused again at the next pass, not twice in the same one', async () => {
    const user = await student('Rhea');
    smtp.refuseNextTo(user.email);
    const week = new Date('2026-10-19T14:15:00Z');
    const first = await run(replica(), week, { concurrency: 1 });
    expect(first).toMatchObject({ sent: 0, failed: 1 });
    expect(await dueOf(user)).toBe('2026-10-19T14:15Z');
    // A second replica's pass that started before the failure would not take it; the next pass does.
    expect((await run(replica(), week)).sent).toBe(1);
    expect(mailsTo(user)).toHaveLength(1);
    expect(await dueOf(user)).toBe('2026-10-26T13:00Z');
  });

  it('leaves the index with the account', async () => {
    const user = await student('Gone');
    expect(await dueOf(user)).toBe('next pass');
    expect((await gw.api('POST', '/api/delete-account', { token: user.idToken, body: {} })).status).toBe(200);
    expect(await dueOf(user)).toBeNull();
  });
});
