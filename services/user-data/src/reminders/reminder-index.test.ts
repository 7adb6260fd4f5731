// Issue 45: reminders fan out from an index. The index follows the student's data (a plan change, a
// pause, a new device), a pass reads only what is due, two replicas running the pass at once send each
// reminder once between them, and a busy push service is tried again when its Retry-After says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createVerifiedUser,
  startFakePushService,
  startTestGateway,
  type FakePushService,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../deps.ts';
import { collegeWith, seedColleges } from '../routes/test-helpers.ts';
import { pushTopic, retryAfterMs, webPushSender } from './push.ts';
import { sendDueReminders } from './send-reminders.ts';
import { jobReplica } from './test-replica.ts';

let gw: TestGateway;
let push: FakePushService;
let busy: http.Server;
let busyUrl = '';
const busyHits: number[] = [];
const COLLEGE = 'Index State University';
const college = collegeWith(COLLEGE);
const DAY14 = new Date('2026-10-18T14:30:00Z');
const DAY13 = new Date('2026-10-19T14:30:00Z');
const keys = webpush.generateVAPIDKeys();

beforeAll(async () => {
  push = await startFakePushService();
  // A push service that is busy once (429, Retry-After: 1), then takes the message.
  busy = http.createServer((req, res) => {
    req.resume();
    busyHits.push(Date.now());
    if (busyHits.length === 1) res.writeHead(429, { 'retry-after': '1' }).end();
    else res.writeHead(201).end();
  });
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  busyUrl = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
  gw = await startTestGateway({
    queue: 'memory',
    env: { REMINDER_EVERY_MS: '0', PUSH_SERVICE_HOSTS: `${push.url},${busyUrl}` },
  });
  await seedColleges(gw.db, [college]);
});
afterAll(async () => {
  await gw?.close();
  await push?.close();
  await new Promise((r) => busy?.close(r));
});

const replica = () =>
  jobReplica(
    gw.db,
    {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      PUSH_SERVICE_HOSTS: `${push.url},${busyUrl}`,
    },
    [college],
  );
const run = (deps: Deps, now: Date) =>
  sendDueReminders(deps, webPushSender(deps.vapid, deps.pushServices), now);

async function student(name: string, device = push.device(name)): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
  const r = await gw.api('POST', '/api/subscribe-reminders', {
    token: user.idToken,
    body: { subscription: device },
  });
  expect(r.status).toBe(200);
  return user;
}
const count = async (table: string, uid?: string) =>
  (
    await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM user_data.${table}${uid ? ' WHERE user_id = $1' : ''}`,
      uid ? [uid] : [],
    )
  ).rows[0]!.n;

describe('the reminder index', () => {
  it("holds each student's coming reminders, and follows a change of plan and a pause", async () => {
    const user = await student('Indy');
    await run(replica(), DAY14);
    // The 14-day reminder went; the 7, 2, 1 and 0-day ones of Early Action wait in the index, and Regular
    // Decision's five.
    expect(await count('reminder_due', user.uid)).toBe(9);
    expect(await count('reminder_stale', user.uid)).toBe(0);
    // Regular Decision only: Early Action's reminders leave the index at the next pass.
    await gw.api('POST', '/api/update-application', {
      token: user.idToken,
      body: { collegeName: COLLEGE, plan: 'RD' },
    });
    expect(await count('reminder_stale', user.uid)).toBe(1);
    await run(replica(), DAY14);
    expect(await count('reminder_due', user.uid)).toBe(5);
    await gw.api('POST', '/api/update-reminder-settings', { token: user.idToken, body: { paused: true } });
    await run(replica(), DAY14);
    expect(await count('reminder_due', user.uid)).toBe(0);
  });

  it('sends every reminder once when two replicas run the pass at the same moment', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, (_, i) => student(`Twin ${i}`)));
    const before = push.received.length;
    const [a, b] = await Promise.all([run(replica(), DAY14), run(replica(), DAY14)]);
    expect(a.sent + b.sent).toBe(users.length);
    const got = push.received.slice(before).map((p) => p.device);
    expect(got.sort()).toEqual(users.map((_, i) => `Twin ${i}`).sort());
    // Again, and from a third replica: nothing more.
    const again = await Promise.all([run(replica(), DAY14), run(replica(), DAY14)]);
    expect(again.map((r) => r.sent)).toEqual([0, 0]);
  });

  it('leaves out a student whose account is being deleted, and sends the rest of the batch', async () => {
    const [staying, leaving] = [await student('Staying'), await student('Leaving')];
    await run(replica(), new Date('2026-10-17T14:30:00Z')); // works both out; nothing is due that day
    expect(await count('reminder_due', leaving.uid)).toBeGreaterThan(0);
    const before = push.received.length;
    // The deletion holds the student's lock until its transaction ends (migration 110).
    await gw.db.transaction(async (tx) => {
      await tx.query('SELECT user_data.lock_deleted_student($1)', [leaving.uid]);
      const r = await run(replica(), DAY14);
      expect(r.sent).toBe(1);
    });
    expect(push.received.slice(before).map((p) => p.device)).toEqual(['Staying']);
    expect(await count('reminder_sent', staying.uid)).toBe(1);
    expect(await count('reminder_sent', leaving.uid)).toBe(0);
  });

  it('loses no reminder when a replica dies mid-push: another sends it once its lease runs out', async () => {
    const user = await student('Crash');
    await run(replica(), new Date('2026-10-17T14:30:00Z'));
    const before = push.received.length;
    // A replica takes the 14-day reminder (its lease 1 s here) and dies before pushing it.
    const taken = await replica().reminders.takeDue(DAY14, 100, 20 * 3_600_000, 1_000);
    expect(taken.map((r) => [r.userId, r.leadDays])).toEqual([[user.uid, 14]]);
    // While the lease holds, no other replica takes it.
    expect((await run(replica(), DAY14)).sent).toBe(0);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await run(replica(), DAY14)).sent).toBe(1);
    expect((await run(replica(), DAY14)).sent).toBe(0);
    const got = push.received.slice(before);
    expect(got.map((p) => p.device)).toEqual(['Crash']);
    // Its Topic is the reminder's, so a repeat (a replica died with the push in flight) replaces the first.
    expect(got[0]!.headers.topic).toBe(pushTopic(String(got[0]!.payload.tag)));
    expect(got[0]!.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await count('reminder_sent', user.uid)).toBe(1);
  });

  it('a pass with nothing due sends nothing and works nobody out again', async () => {
    const r = await run(replica(), DAY13);
    expect(r).toMatchObject({ sent: 0, refreshed: 0 });
  });

  it('tries a busy push service again when its Retry-After says', async () => {
    const device = push.device('Busy');
    await student('Busy', { ...device, endpoint: `${busyUrl}/push/busy` });
    const r = await run(replica(), DAY14);
    expect(r.sent).toBe(1);
    expect(busyHits).toHaveLength(2);
    expect(busyHits[1]! - busyHits[0]!).toBeGreaterThanOrEqual(950);
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.now() + 5_000).toUTCString())).toBeGreaterThan(3_000);
    expect(retryAfterMs('soon')).toBeNull();
  });
});
