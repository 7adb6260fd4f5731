// The reminder job against a local push service that decrypts each message (RFC 8291) with the device's
// keys: one reminder per lead time, none again on a restart or on a second replica, none for a deadline
// the plan prunes, none after submission, and a device the push service forgot is removed (issue 32).
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
import { webPushSender } from './push.ts';
import { sendDueReminders } from './send-reminders.ts';
import { jobReplica } from './test-replica.ts';

let gw: TestGateway;
let push: FakePushService;
const COLLEGE = 'Reminder State University';
// Early Action is due 2026-11-01 at 11:59 pm where the college is (Central Time: the test college is in
// Illinois); reminders go at 9 am there (14:00 UTC in October).
const college = collegeWith(COLLEGE);
const DAY14 = new Date('2026-10-18T14:30:00Z');
const DAY7 = new Date('2026-10-25T14:30:00Z');

beforeAll(async () => {
  push = await startFakePushService();
  // The local push service is admitted the one way anything outside the known push services is.
  gw = await startTestGateway({
    queue: 'memory',
    env: { REMINDER_EVERY_MS: '0', PUSH_SERVICE_HOSTS: push.url },
  });
  await seedColleges(gw.db, [college]);
});
afterAll(async () => {
  await gw?.close();
  await push?.close();
});

const keys = webpush.generateVAPIDKeys();
/** The user-data service's dependencies as one replica (or one restart) builds them, on the same database. */
const replica = () =>
  jobReplica(
    gw.db,
    { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, PUSH_SERVICE_HOSTS: push.url },
    [college],
  );
const run = (deps: Deps, now: Date) =>
  sendDueReminders(deps, webPushSender(deps.vapid, deps.pushServices), now);

/** A student with the college on the list and one device subscribed. */
async function student(name: string): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
  const r = await gw.api('POST', '/api/subscribe-reminders', {
    token: user.idToken,
    body: { subscription: push.device(name) },
  });
  expect(r.status).toBe(200);
  return user;
}
const pushesTo = (name: string) => push.received.filter((p) => p.device === name).map((p) => p.payload);

describe('the reminder job', () => {
  it('sends one reminder per lead time: none again on a restart, none from a second replica', async () => {
    await student('Rita');
    expect((await run(replica(), DAY14)).sent).toBe(1);
    expect(pushesTo('Rita')).toEqual([
      {
        title: `${COLLEGE}: Early Action`,
        body: 'Due in 14 days: Sun, Nov 1, 11:59 PM CST.',
        url: `/usercolleges?college=${encodeURIComponent(COLLEGE)}`,
        tag: `${COLLEGE}|Early Action|2026-11-01|14`,
      },
    ]);
    // A restart (new process, same database), then two replicas at once: nothing is sent again.
    expect((await run(replica(), DAY14)).sent).toBe(0);
    const both = await Promise.all([run(replica(), DAY14), run(replica(), DAY14)]);
    expect(both.map((r) => r.sent)).toEqual([0, 0]);
    expect(pushesTo('Rita')).toHaveLength(1);
    // A week before: the 7-day reminder, once.
    await run(replica(), DAY7);
    await run(replica(), DAY7);
    expect(pushesTo('Rita').map((p) => p.body)).toEqual([
      'Due in 14 days: Sun, Nov 1, 11:59 PM CST.',
      'Due in 7 days: Sun, Nov 1, 11:59 PM CST.',
    ]);
  });

  it('sends none for a deadline the plan prunes', async () => {
    const user = await student('Reg');
    await gw.api('POST', '/api/update-application', {
      token: user.idToken,
      body: { collegeName: COLLEGE, plan: 'RD' },
    });
    await run(replica(), DAY14);
    expect(pushesTo('Reg')).toEqual([]);
  });

  it('sends none once the application is submitted', async () => {
    const user = await student('Sam');
    const r = await gw.api('POST', '/api/update-application', {
      token: user.idToken,
      body: { collegeName: COLLEGE, status: 'submitted' },
    });
    expect(r.status).toBe(200);
    await run(replica(), DAY14);
    expect(pushesTo('Sam')).toEqual([]);
  });

  it('removes a device the push service no longer knows', async () => {
    const user = await student('Gone');
    push.expire('Gone');
    const r = await run(replica(), DAY14);
    expect(r.dropped).toBe(1);
    const settings = await gw.api<{ data: { devices: number } }>('GET', '/api/get-reminder-settings', {
      token: user.idToken,
    });
    expect(settings.body.data.devices).toBe(0);
  });

  it("are in the student's export: lead times, pause and the number of devices, never a push address", async () => {
    const user = await student('Exa');
    await gw.api('POST', '/api/update-reminder-settings', {
      token: user.idToken,
      body: { leadDays: [7, 1] },
    });
    const r = await gw.api<{ data: { pushReminders: unknown } }>('GET', '/api/export-my-data', {
      token: user.idToken,
    });
    expect(r.body.data.pushReminders).toEqual({ leadDays: [7, 1], paused: false, devices: 1 });
    expect(JSON.stringify(r.body)).not.toContain('/push/Exa');
  });

  it('sends nothing while paused', async () => {
    const user = await student('Paula');
    await gw.api('POST', '/api/update-reminder-settings', { token: user.idToken, body: { paused: true } });
    await run(replica(), DAY14);
    expect(pushesTo('Paula')).toEqual([]);
  });
});
