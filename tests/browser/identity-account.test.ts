import type { PublicConfig } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import {
  browserSuite,
  createVerifiedUser,
  disableUser,
  gatewaySuite,
  signInInBrowser,
  signOutInBrowser,
  uniqueEmail,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const { gw, newPage } = browserSuite();

describe('profile account settings in Chromium', () => {
  it('shows the account, updates the name and changes the password from the modal', async () => {
    const user = await createVerifiedUser({ name: 'Old Name' });
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Old Name' }).waitFor();
    expect(await page.getByText(user.email).isVisible()).toBe(true);
    const photo = page.getByRole('img', { name: "Old Name's profile photo" });
    expect(await photo.getAttribute('src')).toMatch(/default-avatar|^data:image\/svg/);

    await page.getByRole('button', { name: 'Account Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Account Settings' });
    await dialog.waitFor();

    await dialog.getByLabel('Display name').fill('New Name');
    await dialog.getByRole('button', { name: 'Update Name' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe(MSG.displayNameUpdated);

    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByLabel('New password').fill('Brand-new-pass-456');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe(MSG.passwordError('The current password is incorrect.'));

    await dialog.getByLabel('Current password').fill(user.password);
    await dialog.getByLabel('New password').fill('Brand-new-pass-456');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe(MSG.passwordUpdated);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('heading', { name: 'New Name' }).isVisible()).toBe(true);

    // The new password is the one that works now.
    await signOutInBrowser(page);
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('button', { name: 'Send Password Reset Email' }).waitFor();
    await signInInBrowser(page, { email: user.email, password: 'Brand-new-pass-456' });
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'New Name' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends the password reset e-mail and locks the button with "Please wait..."', async () => {
    const user = await createVerifiedUser({ name: 'Reset Me' });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Account Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Account Settings' });
    await dialog.getByRole('button', { name: 'Send Password Reset Email' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe(MSG.resetSent);
    expect(await dialog.getByRole('button', { name: MSG.pleaseWait }).isDisabled()).toBe(true);
    await context.close();
  });

  it('signs the user out when the account is disabled, and says why on the login page', async () => {
    const user = await createVerifiedUser({ name: 'Soon Disabled' });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Soon Disabled' }).waitFor();
    await disableUser(user.uid);
    // Coming back to the tab re-reads the account from the provider.
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === '/profile');
    await page.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    await page
      .getByRole('status')
      .getByText('This account has been disabled. Contact support if you think this is a mistake.')
      .waitFor();
    await context.close();
  });
});

describe('header by role', () => {
  it('shows the Admin link to an admin only', async () => {
    const [student, admin] = await Promise.all([
      createVerifiedUser({ name: 'Stu Dent' }),
      createVerifiedUser({ name: 'Ada Admin' }),
    ]);
    await gw.db.query(
      `INSERT INTO auth.staff_roles (uid, role, email, granted_by) VALUES ($1, 'admin', $2, 'test')`,
      [admin.uid, admin.email],
    );
    const nav = (p: Page) => p.getByRole('navigation', { name: 'Main' });

    const { page, context } = await newPage();
    await signInInBrowser(page, admin);
    await nav(page).getByRole('link', { name: 'Admin' }).waitFor();
    await context.close();

    const s = await newPage();
    await signInInBrowser(s.page, student);
    await s.page.goto('/profile');
    await s.page.getByRole('heading', { name: 'Stu Dent' }).waitFor();
    // The role lookup has answered once the session reports admin=false after sign-in.
    await s.page.waitForSelector('html[data-admin="false"]', { state: 'attached' });
    expect(await nav(s.page).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await s.context.close();
  });
});

describe('Google sign-in against the emulator', () => {
  it('offers a clearly labelled local test account that signs in and lands on Your Colleges', async () => {
    const { page, context } = await newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await page.getByRole('button', { name: 'Local test account (emulator only)' }).click();
    const address = uniqueEmail('google');
    await page.getByLabel('Test Google address').fill(address);
    await page.getByRole('button', { name: 'Continue as local test Google account' }).click();
    await page.waitForURL((u) => u.pathname === '/usercolleges');
    await page.waitForSelector('html[data-session="signed-in"]', { state: 'attached' });
    await page.goto('/profile');
    await page.getByText(address).waitFor();
    await context.close();
  });
});

describe('with real Firebase configured', () => {
  // No emulator in the public config: the browser is told it talks to Google's servers.
  const { gw: real } = gatewaySuite({
    listen: true,
    queue: 'memory',
    env: { FIREBASE_AUTH_EMULATOR_HOST: '' },
  });

  it('never shows the local test account', async () => {
    const config = (await (await fetch(`${real.url}/api/public-config`)).json()) as PublicConfig;
    expect(config.firebase.emulatorUrl).toBeNull();
    const { page, context } = await newPage({ baseURL: real.url });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    expect(await page.getByText('Local test account').count()).toBe(0);
    await context.close();
  });
});
