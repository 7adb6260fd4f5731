import auth from '@ct/auth';
import admin from '@ct/admin';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { MSG } from '@ct/contracts/messages';
import { browserSuite, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

// Only the auth and admin services run: the colleges and user-data services are "down".
let adminUser: TestUser;

const { gw, newPage } = browserSuite({ modules: [auth, admin] });
beforeAll(async () => {
  adminUser = await createVerifiedUser({ name: 'Ada Admin' });
  await new RoleRepository(gw.db).grantRole(adminUser.uid, 'admin', adminUser.email, 'test');
});

const section = (page: Page, name: string) =>
  page
    .locator('section.admin-section')
    .filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });

// Browsers on a busy 2-core machine: generous per-test time, no timed assertions.
describe('admin dashboard when data cannot be fetched', { timeout: 90_000 }, () => {
  it("shows the server's message where an owner is down, and the spec's text when the call fails", async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, adminUser);
    // A network failure on one call: no server message to show.
    await page.route('**/api/admin/user-colleges*', (route) => route.abort());
    // Hold one call until "Loading..." has been seen in its section.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/staff*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: MSG.welcomeAdmin }).waitFor();

    const metrics = section(page, 'Dashboard Metrics');
    await expect
      .poll(() => metrics.getByRole('alert').textContent())
      .toBe(
        'The colleges service and student data service are not answering right now, so this data cannot be shown. Please try again in a moment.',
      );
    // No figure is made up in its place.
    expect(await metrics.locator('dd').count()).toBe(0);

    const userColleges = section(page, 'User Colleges');
    await expect.poll(() => userColleges.getByRole('alert').textContent()).toBe(MSG.errorFetchingAdminData);

    // The trail of note reads lives with the notes: its owner is down too, and no empty list stands in.
    const noteReads = section(page, 'Note Reads');
    await expect
      .poll(() => noteReads.getByRole('alert').textContent())
      .toBe(
        'The student data service is not answering right now, so this data cannot be shown. Please try again in a moment.',
      );
    expect(await noteReads.locator('table').count()).toBe(0);
    expect(await noteReads.getByText("No admin has read a student's notes yet.").count()).toBe(0);

    // What the auth service owns still shows, once its call is let through.
    const staff = section(page, 'Staff Members');
    await expect.poll(() => staff.getByRole('status').textContent()).toBe(MSG.loading);
    release();
    await expect.poll(() => staff.locator('tbody tr').first().textContent()).toContain(adminUser.uid);
    await context.close();
  });
});
