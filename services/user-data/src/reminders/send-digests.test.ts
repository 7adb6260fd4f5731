// The weekly e-mail of deadlines against a local SMTP server that authenticates the sender and parses what
// it accepts: Monday 8 am in the student's zone, once per week across restarts and replicas, the deadlines
// of the next two weeks from the one deadline answer, a refused message sent at the next pass, and a stop
// link that works without signing in (issue 32, optional digest).
import {
  createVerifiedUser,
  startFakeSmtpServer,
  startTestGateway,
  type FakeSmtpServer,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collegeWith, seedColleges } from '../routes/test-helpers.ts';
import { jobReplica, runDigests } from './test-replica.ts';

let gw: TestGateway;
let smtp: FakeSmtpServer;
const COLLEGE = 'Digest State University';
const APP_URL = 'https://app.college-ready.test';
// Early Action is due Sunday 2026-11-01 at 11:59 pm Central Time (the test college is in Illinois). The
// e-mail goes on Monday at 8 am where the student is: 13:00 UTC in Chicago, 15:00 UTC in Los Angeles.
const college = collegeWith(COLLEGE);
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

const keys = webpush.generateVAPIDKeys();
/** The user-data service's dependencies as one replica (or one restart) builds them, on the same database. */
const replica = () =>
  jobReplica(
    gw.db,
    { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, SMTP_URL: smtp.url, APP_URL },
    [college],
  );
const run = runDigests;

/** A student with the college on the list and the weekly e-mail on, in a zone. */
async function student(name: string, zone = 'America/Chicago', withCollege = true): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  if (withCollege)
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
  const r = await gw.api('POST', '/api/update-digest-settings', {
    token: user.idToken,
    body: { enabled: true, zone },
  });
  expect(r.status).toBe(200);
  return user;
}
const mailsTo = (user: TestUser) => smtp.received.filter((m) => m.to.includes(user.email));
/** The stop link's token, from the foot of an e-mail. */
const stopToken = (text: string) => /\/email-digest\/stop\/([A-Za-z0-9_-]+)/.exec(text)![1]!;

describe('the weekly e-mail job', () => {
  it("sends the week's deadlines once: none again on a restart, none from a second replica", async () => {
    const user = await student('Dora');
    expect((await run(replica(), MONDAY_CHICAGO)).sent).toBeGreaterThanOrEqual(1);
    const [mail, ...more] = mailsTo(user);
    expect(more).toEqual([]);
    expect(mail!.from).toBe('deadlines@college-ready.app');
    expect(mail!.subject).toBe('This week: 1 deadline in the next 14 days');
    expect(mail!.text).toContain('One deadline of your plan is due in the next 14 days:');
    expect(mail!.text).toContain(`- ${COLLEGE}: Early Action, Sun, Nov 1, 11:59 PM CST`);
    expect(mail!.text).toContain(`${APP_URL}/usercolleges?college=${encodeURIComponent(COLLEGE)}`);
    expect(mail!.html).toContain(`<a href="${APP_URL}/usercolleges?college=Digest%20State%20University">`);
    // A mail client's own "unsubscribe" reaches the same stop link as the one at the foot.
    const token = stopToken(mail!.text);
    expect(mail!.headers['list-unsubscribe']).toBe(`<${APP_URL}/email-digest/stop/${token}>`);
    // A restart (new process, same database), then two replicas at once: nothing is sent again.
    expect((await run(replica(), MONDAY_CHICAGO)).sent).toBe(0);
    const both = await Promise.all([run(replica(), MONDAY_CHICAGO), run(replica(), MONDAY_CHICAGO)]);
    expect(both.map((r) => r.sent)).toEqual([0, 0]);
    expect(mailsTo(user)).toHaveLength(1);
    // The next Monday: the next week's, once.
    const nextMonday = new Date('2026-10-26T13:30:00Z');
    await run(replica(), nextMonday);
    await run(replica(), nextMonday);
    expect(mailsTo(user).map((m) => m.subject)).toEqual([
      'This week: 1 deadline in the next 14 days',
      'This week: 1 deadline in the next 14 days',
    ]);
  });

  it("waits for Monday 8 am in the student's own zone, and never sends a week's e-mail late", async () => {
    const user = await student('Lars', 'America/Los_Angeles');
    await run(replica(), new Date('2026-10-19T14:30:00Z')); // 7:30 am in Los Angeles
    expect(mailsTo(user)).toEqual([]);
    await run(replica(), new Date('2026-10-20T11:30:00Z')); // Tuesday, 20.5 hours after its moment
    expect(mailsTo(user)).toEqual([]);
    await run(replica(), new Date('2026-10-26T15:05:00Z')); // the next Monday, 8:05 am there
    expect(mailsTo(user)).toHaveLength(1);
  });

  it('names the next deadline when none is due in two weeks, and sends nothing with no deadline at all', async () => {
    const user = await student('Nell');
    const none = await student('Nobody', 'America/Chicago', false);
    await run(replica(), new Date('2026-10-12T13:30:00Z'));
    expect(mailsTo(user).map((m) => m.subject)).toEqual([
      `Your next deadline: ${COLLEGE}, Sun, Nov 1, 11:59 PM CST`,
    ]);
    expect(mailsTo(user)[0]!.text).toContain('Nothing of your plan is due in the next 14 days.');
    expect(mailsTo(none)).toEqual([]);
  });

  it('sends a message the relay refused at the next pass', async () => {
    const user = await student('Retry');
    smtp.refuseNextTo(user.email);
    const week = new Date('2026-10-19T13:45:00Z');
    expect((await run(replica(), week)).failed).toBe(1);
    expect(mailsTo(user)).toEqual([]);
    await run(replica(), week);
    expect(mailsTo(user)).toHaveLength(1);
  });
});

describe('the weekly e-mail settings', () => {
  it("goes only to the account's verified address, and turning it off forgets the address", async () => {
    const user = await createVerifiedUser({ name: 'Ada' });
    const get = () => gw.api<{ data: unknown }>('GET', '/api/get-digest-settings', { token: user.idToken });
    expect((await get()).body.data).toEqual({ available: true, enabled: false, email: null, zone: null });
    // An address the client names is refused, and nothing changes.
    const named = await gw.api('POST', '/api/update-digest-settings', {
      token: user.idToken,
      body: { enabled: true, email: 'someone-else@example.com' },
    });
    expect(named.status).toBe(400);
    expect((await get()).body.data).toMatchObject({ enabled: false });
    const on = await gw.api<{ message: string; data: unknown }>('POST', '/api/update-digest-settings', {
      token: user.idToken,
      body: { enabled: true, zone: 'Europe/Paris' },
    });
    expect(on.body.message).toBe(`The weekly e-mail is on. It goes to ${user.email} on Monday mornings.`);
    // A zone the deadlines do not know keeps Eastern Time.
    expect(on.body.data).toEqual({
      available: true,
      enabled: true,
      email: user.email,
      zone: 'America/New_York',
    });
    // The student's export says where it goes.
    const exported = await gw.api<{ data: { weeklyEmail: unknown } }>('GET', '/api/export-my-data', {
      token: user.idToken,
    });
    expect(exported.body.data.weeklyEmail).toEqual({
      enabled: true,
      email: user.email,
      zone: 'America/New_York',
    });
    const off = await gw.api<{ message: string; data: unknown }>('POST', '/api/update-digest-settings', {
      token: user.idToken,
      body: { enabled: false },
    });
    expect(off.body).toMatchObject({
      message: 'The weekly e-mail is off.',
      data: { enabled: false, email: null },
    });
    const row = await gw.db.query('SELECT email FROM user_data.digest_settings WHERE user_id = $1', [
      user.uid,
    ]);
    expect(row.rows).toEqual([{ email: null }]);
  });

  it("stops from the e-mail's link without signing in; an unknown link says so", async () => {
    const user = await student('Stella');
    await run(replica(), new Date('2026-11-02T14:30:00Z')); // Monday Nov 2, 8:30 am CST
    const token = stopToken(mailsTo(user)[0]!.text);
    const stop = await gw.api('POST', '/api/stop-digest', { body: { token } });
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({
      message: 'The weekly e-mail is off. You can turn it on again in Profile.',
    });
    const settings = await gw.api<{ data: unknown }>('GET', '/api/get-digest-settings', {
      token: user.idToken,
    });
    expect(settings.body.data).toMatchObject({ enabled: false, email: null });
    await run(replica(), new Date('2026-11-09T14:30:00Z'));
    expect(mailsTo(user)).toHaveLength(1);
    const unknown = await gw.api('POST', '/api/stop-digest', { body: { token: 'x'.repeat(43) } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      message: expect.stringContaining('This link does not stop any e-mail'),
    });
  });

  it('is forgotten with the account: its stop link no longer finds it', async () => {
    const user = await student('Dana');
    const token = (
      await gw.db.query<{ stop_token: string }>(
        'SELECT stop_token FROM user_data.digest_settings WHERE user_id = $1',
        [user.uid],
      )
    ).rows[0]!.stop_token;
    expect((await gw.api('POST', '/api/delete-account', { token: user.idToken, body: {} })).status).toBe(200);
    expect((await gw.api('POST', '/api/stop-digest', { body: { token } })).status).toBe(404);
  });

  it('is not offered, and cannot be turned on, when the server has no mail relay', async () => {
    const plain = await startTestGateway({ queue: 'memory', env: { REMINDER_EVERY_MS: '0' } });
    try {
      const user = await createVerifiedUser({ name: 'No Mail' });
      const on = await plain.api('POST', '/api/update-digest-settings', {
        token: user.idToken,
        body: { enabled: true },
      });
      expect(on.status).toBe(409);
      expect(on.body).toMatchObject({
        message: 'This server does not send e-mail, so the weekly e-mail cannot be turned on.',
      });
      const settings = await plain.api<{ data: unknown }>('GET', '/api/get-digest-settings', {
        token: user.idToken,
      });
      expect(settings.body.data).toEqual({ available: false, enabled: false, email: null, zone: null });
    } finally {
      await plain.close();
    }
  });
});
