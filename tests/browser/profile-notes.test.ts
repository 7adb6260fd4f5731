import fs from 'node:fs';
import type { Note } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { aidDates, countdownText, daysBetween, localToday } from '@ct/contracts/planning';
import {
  accountExists,
  browserSuite,
  buildCollege,
  createVerifiedUser,
  longDate,
  signIn,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import ical, { type VEvent } from 'node-ical';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

// Deadlines in the month the calendar opens on (the browser and this process share the clock and zone).
const now = new Date();
const ym = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
const DAY_NOTE = `${ym}-10`;
const DAY_BUSY = `${ym}-20`;
/** Two deadlines on one day: its calendar tile says "⚠ 2 deadlines". */
const BUSY_DAY_DEADLINES = [
  { type: 'Early Action', date: DAY_BUSY },
  { type: 'Early Decision', date: DAY_BUSY },
];

const COLLEGE = 'Maple Valley College';

/** The countdown the page shows for a day (the browser and this process share the clock and zone). */
const countdownOf = (iso: string) => {
  const today = localToday();
  return daysBetween(today, iso) < 0 ? `Passed · ${countdownText(iso, today)}` : countdownText(iso, today);
};

const { gw, newPage } = browserSuite({
  colleges: [buildCollege({ name: COLLEGE, info: { deadlines: BUSY_DAY_DEADLINES } })],
});

const notesOf = async (user: TestUser) =>
  (await gw.api<{ notes: Note[] }>('GET', '/api/get-notes', { token: user.idToken })).body.notes;
const tile = (page: Page, iso: string) =>
  page.locator('.react-calendar__month-view__days__day', {
    has: page.locator(`abbr[aria-label="${longDate(iso)}"]`),
  });

describe('profile notes and calendar in Chromium', () => {
  it('creates, edits and deletes a note, and shows its deadline on the calendar', async () => {
    const user = await createVerifiedUser({ name: 'Hana' });
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByText(MSG.noNotesYet).waitFor();
    expect(await notes.getByText(/up to 30 notes, and note titles cannot be edited/).isVisible()).toBe(true);

    // Validation, as the spec words it.
    await notes.getByRole('button', { name: 'Add Note' }).click();
    expect(await notes.getByRole('alert').textContent()).toBe(MSG.createNoteMissing);
    await notes.getByLabel('Title').fill('Too long');
    await notes.getByLabel('Content').fill('x'.repeat(2001));
    expect(await notes.getByText('Character Count 2001/2000').isVisible()).toBe(true);
    await notes.getByRole('button', { name: 'Add Note' }).click();
    expect(await notes.getByRole('alert').textContent()).toBe(MSG.noteTooLong);
    expect(await notesOf(user)).toEqual([]);

    // Create, with a date.
    await notes.getByLabel('Title').fill('Scholarship essay');
    await notes.getByLabel('Content').fill('Rotary club, 500 words');
    expect(await notes.getByText('Character Count 22/2000').isVisible()).toBe(true);
    await notes.getByLabel('Date (optional)').fill(DAY_NOTE);
    await notes.getByRole('button', { name: 'Add Note' }).click();
    await notes.getByRole('status').getByText(MSG.noteAdded).waitFor();
    const list = notes.getByRole('list', { name: 'Your Notes' });
    await list.getByRole('heading', { name: 'Scholarship essay' }).waitFor();
    expect(await notes.getByLabel('Title').inputValue()).toBe('');
    expect(await notesOf(user)).toMatchObject([
      { title: 'Scholarship essay', content: 'Rotary club, 500 words', deadline: DAY_NOTE },
    ]);

    // Its deadline shows on the calendar, and clicking the day lists it with a Google Calendar link.
    const calendar = page.getByRole('region', { name: 'Deadlines Calendar' });
    await expect
      .poll(() => tile(page, DAY_NOTE).locator('.cal-marker').textContent())
      .toBe('Scholarship essay');
    await tile(page, DAY_NOTE).click();
    await calendar.getByRole('heading', { name: `Deadlines on ${longDate(DAY_NOTE)}` }).waitFor();
    const google = calendar
      .locator('.day-deadlines')
      .getByRole('link', { name: /^Add to Google Calendar: Scholarship essay/ });
    const href = new URL((await google.getAttribute('href'))!);
    expect(href.hostname).toBe('calendar.google.com');
    expect(href.searchParams.get('text')).toBe('Scholarship essay');
    expect(href.searchParams.get('dates')).toBe(
      `${DAY_NOTE.replace(/-/g, '')}T090000/${DAY_NOTE.replace(/-/g, '')}T100000`,
    );

    // Edit: the title is locked, the content changes, the form returns to create mode.
    await list.getByRole('button', { name: 'Edit Scholarship essay' }).click();
    const title = notes.getByLabel('Title');
    expect(await title.inputValue()).toBe('Scholarship essay');
    expect(await title.getAttribute('readonly')).not.toBeNull();
    await notes.getByLabel('Content').fill('Rotary club, 650 words now');
    await notes.getByRole('button', { name: 'Update Note' }).click();
    await notes.getByRole('status').getByText(MSG.noteUpdated).waitFor();
    await list.getByText('Rotary club, 650 words now').waitFor();
    expect(await notes.getByRole('button', { name: 'Add Note' }).isVisible()).toBe(true);
    expect(await title.getAttribute('readonly')).toBeNull();
    expect((await notesOf(user))[0]).toMatchObject({
      content: 'Rotary club, 650 words now',
      deadline: DAY_NOTE,
    });

    // Cancel leaves the note as it was.
    await list.getByRole('button', { name: 'Edit Scholarship essay' }).click();
    await notes.getByLabel('Content').fill('Never saved');
    await notes.getByRole('button', { name: 'Cancel' }).click();
    expect(await notes.getByLabel('Content').inputValue()).toBe('');
    expect((await notesOf(user))[0]?.content).toBe('Rotary club, 650 words now');

    // Delete asks first; Cancel keeps the note.
    await list.getByRole('button', { name: 'Delete Scholarship essay' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this note?' });
    await confirm.getByText('“Scholarship essay” will be deleted for good').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await notesOf(user)).toHaveLength(1);
    // Delete confirmed: the note and its calendar marker go.
    await list.getByRole('button', { name: 'Delete Scholarship essay' }).click();
    await confirm.getByRole('button', { name: 'Delete note' }).click();
    await notes.getByText(MSG.noNotesYet).waitFor();
    expect(await notesOf(user)).toEqual([]);
    await expect.poll(() => tile(page, DAY_NOTE).locator('.cal-marker').count()).toBe(0);
    await calendar.getByText(MSG.noDeadlinesForDate).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('marks busy days with a warning and a count, reveals all deadlines, drills views and downloads deadlines.ics', async () => {
    const user = await createVerifiedUser({ name: 'Ivo' });
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
    await gw.api('POST', '/api/add-note', {
      token: user.idToken,
      body: { note: { title: 'Interview', content: 'Alumni interview', deadline: DAY_NOTE } },
    });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const calendar = page.getByRole('region', { name: 'Deadlines Calendar' });

    await expect.poll(() => tile(page, DAY_BUSY).locator('.cal-marker').textContent()).toBe('⚠ 2 deadlines');
    expect(await tile(page, DAY_NOTE).locator('.cal-marker').textContent()).toBe('Interview');
    await tile(page, DAY_BUSY).click();
    const day = calendar.locator('.day-deadlines');
    await day.getByText('Early Action').waitFor();
    expect(await day.getByText('Early Decision').isVisible()).toBe(true);
    expect(await day.getByRole('link', { name: /^Add to Google Calendar/ }).count()).toBe(2);

    // Event titles name the plan; each deadline says how far it is, and a past one is marked.
    expect(await day.getByText(`${COLLEGE}: Early Action`).isVisible()).toBe(true);
    const countdown = await day.locator('.countdown').first().textContent();
    expect(countdown).toBe(countdownOf(DAY_BUSY));

    const reveal = calendar.getByRole('button', { name: 'Reveal all Deadlines' });
    await reveal.click();
    const all = calendar.locator('#all-deadlines');
    await all.getByText('Interview', { exact: true }).waitFor();
    // The two college deadlines, the note, and (with a college on the list) the FAFSA and CSS Profile dates.
    const aid = aidDates(localToday());
    // ... and the May 1 reply date.
    expect(await all.getByRole('listitem').count()).toBe(4 + aid.length);
    for (const a of aid)
      expect(await all.getByText(a.title, { exact: true }).isVisible(), a.title).toBe(true);
    expect(await all.getByRole('link', { name: 'FAFSA site' }).first().getAttribute('href')).toBe(
      'https://studentaid.gov/h/apply-for-aid/fafsa',
    );
    await calendar.getByRole('button', { name: 'Hide Deadlines' }).click();
    expect(await all.isVisible()).toBe(false);

    // Drill up from month to century, then back down.
    const label = calendar.locator('.react-calendar__navigation__label');
    await label.click();
    await calendar.locator('.react-calendar__year-view').waitFor();
    const thisMonth = now.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
    expect(
      await calendar
        .locator('.react-calendar__year-view__months__month', {
          has: page.locator(`abbr[aria-label="${thisMonth}"]`),
        })
        .locator('.cal-count')
        .textContent(),
    ).toBe('3');
    await label.click();
    await calendar.locator('.react-calendar__decade-view').waitFor();
    await label.click();
    await calendar.locator('.react-calendar__century-view').waitFor();
    await calendar.locator('.react-calendar__century-view__decades__decade').first().click();
    await calendar.locator('.react-calendar__decade-view').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      calendar.getByRole('button', { name: 'Download deadlines.ics' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('deadlines.ics');
    const text = fs.readFileSync((await download.path())!, 'utf8');
    const events = Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
    // The file is the server's calendar: titles name the plan, and every event has its reminders.
    expect(events.map((e) => String(e.summary)).sort()).toEqual(
      [
        'Interview',
        `${COLLEGE}: Early Action`,
        `${COLLEGE}: Early Decision`,
        'College reply deadline (May 1)',
        ...aid.map((a) => a.title),
      ].sort(),
    );
    // Reminders ring at 9 am local on their day: before 11:59 pm for a deadline, after midnight for a day.
    for (const e of events) {
      const alarms = (e as VEvent & { alarms?: Array<{ trigger: string }> }).alarms ?? [];
      for (const a of alarms) expect(a.trigger).toMatch(/^(-P\d+DT14H59M|-PT14H59M|-P\d+DT15H|PT9H)$/);
    }
    // A college deadline is due at 11:59 pm with its zone; never a floating time.
    for (const v of text.split('BEGIN:VEVENT').slice(1)) expect(v).not.toMatch(/^DTSTART:\d{8}T\d{6}\r?$/m);
    expect(text).toMatch(/^DTSTART;TZID=America\/Chicago:\d{8}T235900$/m);
    await context.close();
  });

  it('shows the empty states of a student with no deadlines', async () => {
    const user = await createVerifiedUser({ name: 'Jo' });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const calendar = page.getByRole('region', { name: 'Deadlines Calendar' });
    await calendar.getByText(MSG.noDeadlinesAvailable).waitFor();
    expect(await calendar.getByRole('button', { name: 'Download deadlines.ics' }).isDisabled()).toBe(true);
    await tile(page, DAY_NOTE).click();
    await calendar.getByText(MSG.noDeadlinesForDate).waitFor();
    await context.close();
  });

  it('creates a private calendar link that serves the deadlines, and revokes it', async () => {
    const user = await createVerifiedUser({ name: 'Kai' });
    await gw.api('POST', '/api/add-note', {
      token: user.idToken,
      body: { note: { title: 'Portfolio', content: 'Upload the art portfolio', deadline: DAY_NOTE } },
    });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const feed = page.locator('.calendar-feed');
    await feed.getByRole('button', { name: 'Create private calendar link' }).click();
    const url = await feed.getByLabel('Private calendar link').inputValue();
    expect(url).toMatch(new RegExp(`^${gw.url}/api/calendar/[A-Za-z0-9_-]{43}/deadlines\\.ics$`));
    const webcal = await feed
      .getByRole('link', { name: 'Open in your calendar app (webcal)' })
      .getAttribute('href');
    expect(webcal).toBe(url.replace(/^http:/, 'webcal:'));
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('SUMMARY:Portfolio');

    await feed.getByRole('button', { name: 'Revoke link' }).click();
    await feed.getByText('Calendar link revoked. Calendars using it will stop updating.').waitFor();
    expect((await fetch(url)).status).toBe(404);
    await context.close();
  });

  it('exports my data as JSON, then deletes the account and all its data', async () => {
    const user = await createVerifiedUser({ name: 'Lee' });
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
    await gw.api('POST', '/api/add-note', {
      token: user.idToken,
      body: { note: { title: 'Keep me', content: 'Exported' } },
    });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Your Data' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Export my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^college-ready-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as {
      userId: string;
      colleges: Array<{ collegeName: string; checklist: Record<string, unknown> }>;
      notes: Note[];
    };
    expect(exported.userId).toBe(user.uid);
    expect(exported.colleges.map((c) => c.collegeName)).toEqual([COLLEGE]);
    expect(Object.keys(exported.colleges[0]!.checklist)).toContain('deadlines');
    expect(exported.notes.map((n) => n.title)).toEqual(['Keep me']);

    // A staff role goes with the account.
    await gw.db.query(
      `INSERT INTO auth.staff_roles (uid, role, email, granted_by) VALUES ($1, 'staff', $2, 'test')`,
      [user.uid, user.email],
    );

    await section.getByRole('button', { name: 'Delete my account and data' }).click();
    const confirm = section.getByRole('form', { name: 'Confirm account deletion' });
    await confirm.getByLabel('Current password').fill('wrong-password-1');
    await confirm.getByRole('button', { name: 'Yes, delete my account and data' }).click();
    const alert = section.getByRole('alert');
    await alert.getByText(/^Nothing was deleted/).waitFor();
    // Plain words, never the SDK's "Firebase: Error (auth/...)".
    expect(await alert.textContent()).not.toMatch(/Firebase|auth\//);
    expect(await notesOf(user)).toHaveLength(1);
    expect(await accountExists(user.uid)).toBe(true);

    await confirm.getByLabel('Current password').fill(user.password);
    await confirm.getByRole('button', { name: 'Yes, delete my account and data' }).click();
    await page.waitForURL((u) => u.pathname === '/account-deleted');
    await page.getByRole('heading', { level: 1, name: 'Account deleted' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe(MSG.accountDeleted);
    await page.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    const rows = await gw.db.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM user_data.note WHERE user_id = $1)
            + (SELECT count(*)::int FROM user_data.user_college WHERE user_id = $1)
            + (SELECT count(*)::int FROM auth.staff_roles WHERE uid = $1) AS n`,
      [user.uid],
    );
    expect(rows.rows[0]?.n).toBe(0);
    // The Firebase account itself is gone (deleted by the server, not by the browser).
    expect(await accountExists(user.uid)).toBe(false);
    await expect(signIn(user.email, user.password)).rejects.toThrow(
      /EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/,
    );
    await context.close();
  });
});
