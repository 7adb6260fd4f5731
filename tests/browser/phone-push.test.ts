// A deadline reminder reaches the phone (390x844, Chromium): the reminder job sends it through a local push
// service (which decrypts it with the device's keys), Chromium delivers that message to the app's service
// worker over CDP, a notification appears naming the college, the deadline and its date, and the page it
// opens is the college's checklist (issue 32).
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  signInInBrowser,
  startFakePushService,
  type FakePushService,
} from '@ct/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { webPushSender } from '../../services/user-data/src/reminders/push.ts';
import { sendDueReminders } from '../../services/user-data/src/reminders/send-reminders.ts';
import { jobReplica } from '../../services/user-data/src/reminders/test-replica.ts';

const COLLEGE = 'Pushpin Valley College';
const college = buildCollege({
  name: COLLEGE,
  info: { deadlines: [{ type: 'Early Action', date: '2026-11-01' }] },
});
const keys = webpush.generateVAPIDKeys();
// Started first: the gateway admits this local push service by its origin, the only way it admits one.
const push: FakePushService = await startFakePushService();
afterAll(() => push.close());

const settings = {
  VAPID_PUBLIC_KEY: keys.publicKey,
  VAPID_PRIVATE_KEY: keys.privateKey,
  PUSH_SERVICE_HOSTS: push.url,
};
const { gw, browser } = browserSuite({ env: { REMINDER_EVERY_MS: '0', ...settings }, colleges: [college] });

describe('a deadline reminder on the phone', () => {
  it('turns into a notification that opens the right checklist', async () => {
    const user = await createVerifiedUser({ name: 'Pia Push' });
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
    const { page, context } = await newPage(browser, gw.url, { viewport: { width: 390, height: 844 } });
    await context.grantPermissions(['notifications'], { origin: gw.url });
    await signInInBrowser(page, user);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Deadline reminders' }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    // The device's subscription (a headless browser cannot reach a vendor's push service).
    await gw.api('POST', '/api/subscribe-reminders', {
      token: user.idToken,
      body: { subscription: push.device('pia-phone') },
    });
    const deps = jobReplica(gw.db, settings, [college]);
    await sendDueReminders(
      deps,
      webPushSender(deps.vapid, deps.pushServices),
      new Date('2026-10-18T14:30:00Z'),
    );
    expect(push.received).toHaveLength(1);
    const payload = push.received[0]!.payload;

    // Chromium hands the decrypted message to the app's service worker, as its push client would.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on(
        'ServiceWorker.workerRegistrationUpdated',
        (e: { registrations: Array<{ registrationId: string; scopeURL: string }> }) => {
          const reg = e.registrations.find((r) => r.scopeURL === `${gw.url}/`);
          if (reg) resolve(reg.registrationId);
        },
      ),
    );
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: gw.url,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
    const shown = async () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          url: (n.data as { url: string }).url,
        })),
      );
    await expect.poll(shown).toHaveLength(1);
    const [notification] = await shown();
    expect(notification).toEqual({
      title: `${COLLEGE}: Early Action`,
      body: 'Due in 14 days: Sun, Nov 1, 11:59 PM CST.',
      url: `/usercolleges?college=${encodeURIComponent(COLLEGE)}`,
    });

    // The page it opens: the college's checklist.
    await page.goto(notification!.url);
    await page.getByRole('heading', { name: `Checklist — ${COLLEGE}` }).waitFor();
    await context.close();
  });
});
