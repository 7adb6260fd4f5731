// The weekly e-mail of deadlines, as a student meets it (390x844, Chromium): turned on in Profile when the
// server has a mail relay, sent by the job through a local SMTP server on the student's Monday morning,
// and stopped from the link at its foot by whoever opens it, signed in or not (issue 32, optional digest).
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  signInInBrowser,
  startFakeSmtpServer,
} from '@ct/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { axe, describeViolations, settled } from '../a11y/lib.ts';
import { jobReplica, runDigests } from '../../services/user-data/src/reminders/test-replica.ts';

const COLLEGE = 'Mailbox Valley College';
const college = buildCollege({
  name: COLLEGE,
  info: { deadlines: [{ type: 'Early Action', date: '2026-11-01' }] },
});
const smtp = await startFakeSmtpServer();
afterAll(() => smtp.close());
const { gw, browser } = browserSuite({
  env: { REMINDER_EVERY_MS: '0', SMTP_URL: smtp.url },
  colleges: [college],
});

/** One pass of the weekly e-mail job, as the user-data service runs it, at a given moment. */
const runJob = (now: Date) =>
  runDigests(jobReplica(gw.db, { SMTP_URL: smtp.url, APP_URL: gw.url.replace(/\/$/, '') }, [college]), now);

describe('the weekly e-mail', () => {
  it('is turned on in Profile, arrives on Monday morning, and its link stops it without signing in', async () => {
    const user = await createVerifiedUser({ name: 'Mae Mail' });
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
    const { page } = await newPage(browser, gw.url, {
      viewport: { width: 390, height: 844 },
      timezoneId: 'America/Chicago',
    });
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const panel = page.getByRole('region', { name: 'Weekly e-mail' });
    const box = panel.getByRole('checkbox', { name: 'Send me the weekly e-mail' });
    await expect.poll(() => box.isChecked()).toBe(false);
    await box.check();
    await panel
      .getByRole('status')
      .getByText(`The weekly e-mail is on. It goes to ${user.email} on Monday mornings.`)
      .waitFor();
    await panel.getByText(`It goes to ${user.email}.`, { exact: true }).waitFor();
    await settled(page);
    expect(describeViolations(await axe(page)), 'Profile with the weekly e-mail on').toEqual([]);

    // Monday 2026-10-19, 8:30 am in Chicago (the browser's zone when it was turned on).
    await runJob(new Date('2026-10-19T13:30:00Z'));
    const mails = smtp.received.filter((m) => m.to.includes(user.email));
    expect(mails.map((m) => m.subject)).toEqual(['This week: 1 deadline in the next 14 days']);
    expect(mails[0]!.text).toContain(`${COLLEGE}: Early Action, Sun, Nov 1, 11:59 PM CST`);
    const stopUrl = /(http\S+\/email-digest\/stop\/\S+)/.exec(mails[0]!.text)![1]!;

    // Whoever opens the link (a parent's phone, a mail app's browser): not signed in.
    const other = await newPage(browser, gw.url, { viewport: { width: 390, height: 844 } });
    const response = await other.page.goto(stopUrl);
    // The link is a key: never cached, never indexed, never passed on as a referrer.
    expect(response?.headers()['cache-control']).toBe('no-store');
    expect(response?.headers()['x-robots-tag']).toContain('noindex');
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await other.page.getByRole('heading', { name: 'Stop the weekly e-mail' }).waitFor();
    await settled(other.page);
    expect(describeViolations(await axe(other.page)), 'the stop page').toEqual([]);
    // Opening the link alone stops nothing: a mail scanner that follows it changes nothing.
    const before = await gw.api<{ data: { enabled: boolean } }>('GET', '/api/get-digest-settings', {
      token: user.idToken,
    });
    expect(before.body.data.enabled).toBe(true);
    await other.page.getByRole('button', { name: 'Stop the weekly e-mail' }).click();
    await other.page
      .getByRole('status')
      .getByText('The weekly e-mail is off. You can turn it on again in Profile.')
      .waitFor();
    await other.context.close();

    await page.reload();
    await expect.poll(() => box.isChecked()).toBe(false);
    await runJob(new Date('2026-10-26T13:30:00Z'));
    expect(smtp.received.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });
});
