import { RoleRepository } from '@ct/auth/repositories/roles';
import { MSG } from '@ct/contracts/messages';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  seedColleges,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

let admin: TestUser;
let student: TestUser;

const SECTIONS = [
  'Dashboard Metrics',
  'Colleges',
  'College Review',
  'Staff Members',
  'Major Colleges',
  'User Colleges',
  'Profile Notes',
  'Note Reads',
  'Ingestion',
];

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: 'Northbrook University',
      demographics: { schoolCity: 'Northbrook', schoolState: 'IL' },
    }),
    buildCollege({ name: 'Southgate College', demographics: { schoolCity: 'Southgate', schoolState: 'MI' } }),
    buildCollege({ name: 'Eastwood Institute', demographics: { schoolCity: 'Eastwood', schoolState: 'KY' } }),
  ],
});
beforeAll(async () => {
  [admin, student] = await Promise.all([
    createVerifiedUser({ name: 'Ada Admin' }),
    createVerifiedUser({ name: 'Sam Student' }),
  ]);
  const roles = new RoleRepository(gw.db);
  await roles.grantRole(admin.uid, 'admin', admin.email, 'test');
  await roles.grantRole('counselor-kim', 'staff', 'kim@example.com', 'test');
});

const section = (page: Page, name: string) =>
  page
    .locator('section.admin-section')
    .filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });
const toggle = (page: Page, name: string) =>
  page.getByRole('heading', { level: 2, name, exact: true }).getByRole('button');

// Browsers on a busy 2-core machine: generous per-test time, no timed assertions.
describe('admin dashboard in Chromium', { timeout: 90_000 }, () => {
  it('shows an admin the Admin link and the dashboard with live figures', async () => {
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, admin);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const link = nav.getByRole('link', { name: 'Admin', exact: true });
    await link.waitFor();
    await link.click();
    await page.waitForURL((u) => u.pathname === '/admin');
    await page.getByRole('heading', { level: 1, name: MSG.welcomeAdmin }).waitFor();
    expect(await page.title()).toBe('Admin | College Ready');
    for (const name of SECTIONS) {
      expect(await toggle(page, name).getAttribute('aria-expanded'), name).toBe('true');
    }

    // Dashboard Metrics: what this test created.
    await expect.poll(() => page.getByTestId('metric-colleges').textContent(), { timeout: 20_000 }).toBe('3');
    expect(await page.getByTestId('metric-staff').textContent()).toBe('2');
    expect(await page.getByTestId('metric-profiles').textContent()).toBe('0');

    // Colleges: table, filter by name (on the server), raw JSON on request.
    const colleges = section(page, 'Colleges');
    const rows = colleges.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    await colleges.getByLabel('Filter colleges by name').fill('southgate');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      'Southgate College',
      'Southgate',
      'MI',
      expect.any(String),
      'Merge…Delete',
    ]);
    expect(await colleges.getByText('Showing 1–1 of 1').count()).toBe(1);
    await colleges.getByRole('button', { name: 'Show Full Data' }).click();
    const json = colleges.locator('pre.admin-json');
    await expect
      .poll(async () => (await json.count()) && (await json.textContent()))
      .toContain('"schoolCity": "Southgate"');
    await colleges.getByRole('button', { name: 'Hide Full Data' }).click();
    await expect.poll(() => json.count()).toBe(0);

    // Staff Members: filter by user id, and by role.
    const staff = section(page, 'Staff Members');
    const staffRows = staff.locator('tbody tr');
    await expect.poll(() => staffRows.count()).toBe(2);
    await staff.getByLabel('Filter staff by user id').fill('counselor');
    await expect.poll(() => staffRows.count()).toBe(1);
    expect(await staffRows.first().locator('td').allTextContents()).toEqual([
      'counselor-kim',
      'staff',
      'kim@example.com',
    ]);
    await staff.getByLabel('Filter staff by user id').fill('');
    await staff.getByLabel('Role').selectOption('admin');
    await expect.poll(() => staffRows.allTextContents()).toEqual([`${admin.uid}admin${admin.email}`]);

    // Collapsible: a section hides and comes back.
    await toggle(page, 'Staff Members').click();
    expect(await toggle(page, 'Staff Members').getAttribute('aria-expanded')).toBe('false');
    expect(await staff.getByLabel('Filter staff by user id').count()).toBe(0);
    await toggle(page, 'Staff Members').click();
    await staff.getByLabel('Filter staff by user id').waitFor();

    // Note Reads: no student has notes yet, so nobody has read any.
    await expect
      .poll(() => section(page, 'Note Reads').getByText("No admin has read a student's notes yet.").count())
      .toBe(1);
    expect(await section(page, 'Note Reads').locator('table').count()).toBe(0);

    // Refresh Data shows figures that changed since the page loaded.
    await seedColleges(gw.db, [buildCollege({ name: 'Westfield College' })]);
    await page.getByRole('button', { name: 'Refresh Data' }).click();
    await expect.poll(() => page.getByTestId('metric-colleges').textContent()).toBe('4');

    expect(errors).toEqual([]);
    await context.close();
  });

  it("records an admin's reading of notes and lists it under Note Reads: who, whose, when, newest first", async () => {
    const nia = await createVerifiedUser({ name: 'Nia Notes' });
    const addNote = async (who: TestUser, title: string) =>
      expect(
        (
          await gw.api('POST', '/api/add-note', {
            token: who.idToken,
            body: { note: { title, content: 'x' } },
          })
        ).status,
      ).toBe(200);
    await addNote(student, 'Campus tour');
    // 25 earlier reads of Sam's notes through the API fill the trail's first page.
    for (let i = 0; i < 25; i++) {
      const r = await gw.api('GET', '/api/admin/profile-notes', {
        token: admin.idToken,
        query: { filterUserId: student.uid },
      });
      expect(r.status).toBe(200);
    }
    await addNote(nia, 'Essay ideas');
    await addNote(nia, 'Visit plan');

    const { page, context, errors } = await newPage();
    await signInInBrowser(page, admin);
    await page.goto('/admin');
    // The admin reads the notes on the page: first every student's, then Nia's, filtered by her user id.
    const notes = section(page, 'Profile Notes');
    await expect.poll(() => notes.locator('tbody tr').count(), { timeout: 20_000 }).toBe(3);
    await notes.getByLabel('Filter notes by user id').fill(nia.uid);
    await expect
      .poll(() => notes.locator('tbody tr td[data-label="Title"]').allTextContents())
      .toEqual(['Essay ideas', 'Visit plan']);

    // 25 API reads, the page's first (unfiltered) Profile Notes with both students, then the filtered one.
    const reads = section(page, 'Note Reads');
    const rows = reads.locator('tbody tr');
    await expect.poll(() => reads.getByText('Showing 1–25 of 28').count(), { timeout: 20_000 }).toBe(1);
    const cells = (i: number) => rows.nth(i).locator('td');
    expect((await cells(0).allTextContents()).slice(1)).toEqual([admin.email, admin.uid, nia.uid, '2']);
    const readAt = new Date(String(await cells(0).first().textContent()));
    expect(Number.isNaN(readAt.getTime())).toBe(false);
    expect(Math.abs(readAt.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    // Both students the unfiltered page showed come next; then the API reads of Sam's notes.
    const students = async () =>
      Promise.all(
        (await rows.all()).map(async (r) => (await r.locator('td[data-label="Student ID"]').textContent())!),
      );
    expect((await students()).slice(1, 3).sort()).toEqual([nia.uid, student.uid].sort());
    expect((await students()).slice(3)).toEqual(Array(22).fill(student.uid));

    // The next page holds the oldest reads.
    await reads.getByRole('button', { name: 'Next' }).click();
    // (the pager moves at once; the previous page's rows stay until the next page arrives)
    await expect.poll(() => rows.count()).toBe(3);
    expect(await reads.getByText('Showing 26–28 of 28').count()).toBe(1);
    for (let i = 0; i < 3; i++)
      expect((await cells(i).allTextContents()).slice(1)).toEqual([admin.email, admin.uid, student.uid, '1']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists a failed ingestion with its reason and retries it from the Ingestion section', async () => {
    // No Scorecard or AI key is configured here, so gathering an unknown college fails with a reason.
    const name = 'Imaginary Lakes College of Nowhere';
    const asked = await gw.api<{ data: { key: string } }>('POST', '/api/add-college', {
      token: student.idToken,
      body: { name },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    let reason = '';
    await expect
      .poll(
        async () => {
          const r = await gw.api<{ ingestion: { failed: { key: string; failureReason: string | null }[] } }>(
            'GET',
            '/api/admin/ingestion',
            { token: admin.idToken },
          );
          reason = r.body.ingestion?.failed.find((f) => f.key === asked.body.data.key)?.failureReason ?? '';
          return reason;
        },
        { timeout: 60_000, interval: 500 },
      )
      .not.toBe('');

    const { page, context } = await newPage();
    await signInInBrowser(page, admin);
    await page.goto('/admin');
    const ingestion = section(page, 'Ingestion');
    const row = ingestion.locator('tbody tr').filter({ hasText: name });
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe(reason);
    await row.getByRole('button', { name: `Retry ${name}` }).click();
    await expect
      .poll(() => ingestion.getByRole('status').first().textContent())
      .toBe(`Retry queued for ${name}.`);
    await context.close();
  });

  it('opens the queue dashboard from /admin with one click (the session starts with the ID token)', async () => {
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, admin);
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: MSG.welcomeAdmin }).waitFor();
    await page.getByRole('button', { name: 'Queue dashboard' }).click();
    await page.waitForURL((u) => u.pathname === '/ops/queues');
    await page.getByRole('heading', { level: 1, name: 'Queue dashboard' }).waitFor();
    // The embedded run's read-only page, with the ingestion queue's counts: an admin session, not the
    // sign-in hint.
    expect(await page.getByRole('rowheader', { name: 'ingestion' }).count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('does not show a student the Admin link, and sends them from /admin to /', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Profile', exact: true }).waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.goto('/admin');
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.getByRole('heading', { name: MSG.welcomeAdmin }).count()).toBe(0);
    await context.close();
  });

  it('sends an anonymous visitor from /admin to /', async () => {
    const { page, context } = await newPage();
    await page.goto('/admin');
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});
