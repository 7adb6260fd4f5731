import { MSG } from '@ct/contracts/messages';
import {
  applyVerificationCode,
  browserSuite,
  createVerifiedUser,
  signInInBrowser,
  signOutInBrowser,
  uniqueEmail,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const RESET_SENT_IF_ACCOUNT =
  'If an account exists for that e-mail, we sent a password reset link to it. Check your inbox.';

const { newPage } = browserSuite();

const sessionState = (page: Page) => page.locator('html').getAttribute('data-session');

describe('login page in Chromium', () => {
  it('signs up, asks for verification, refuses the unverified login, then logs in once verified', async () => {
    const { page, context, errors } = await newPage();
    const email = uniqueEmail('signup');
    const password = 'Secret-pass-123';
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    expect(await page.getByRole('heading', { name: 'Sign Up' }).isVisible()).toBe(true);

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(MSG.enterName);

    await page.getByLabel('Name', { exact: true }).fill('Ada Student');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(MSG.signUpInfo);
    expect(await sessionState(page)).toBe('signed-out');

    // Not verified yet: the login is refused with the spec's message.
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(MSG.emailNotVerified);
    expect(await sessionState(page)).toBe('signed-out');

    await applyVerificationCode(email);
    await signInInBrowser(page, { email, password });
    for (const path of ['/search', '/usercolleges', '/essays', '/profile']) {
      await page.goto(path);
      await page.waitForSelector('html[data-session="signed-in"]');
      expect(new URL(page.url()).pathname).toBe(path);
    }
    await page.getByText('Ada Student').first().waitFor();

    // Signing out here goes home; a signed-in page asked for afterwards goes to the login page.
    await signOutInBrowser(page);
    await page.waitForURL((u) => u.pathname === '/');
    for (const path of ['/search', '/usercolleges', '/essays', '/profile']) {
      await page.goto(path);
      await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === path);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers "Forgot password?" always and the reset after a wrong password, locked for 60 s after use', async () => {
    const user = await createVerifiedUser({ name: 'Reset Student' });
    const { page, context } = await newPage();
    await page.clock.install();
    await page.goto('/login');
    await page.getByRole('form', { name: 'Login' }).waitFor();
    const reset = page.getByRole('button', { name: 'Send Password Reset Email' });
    expect(await reset.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Forgot password?' }).isVisible()).toBe(true);

    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await reset.waitFor();
    const alert = await page.getByRole('alert').textContent();
    expect(alert).toMatch(/incorrect/i);

    await reset.click();
    // The login page never says whether an account has that e-mail.
    await expect.poll(() => page.getByRole('status').textContent()).toBe(RESET_SENT_IF_ACCOUNT);
    const waiting = page.getByRole('button', { name: MSG.pleaseWait });
    expect(await waiting.isDisabled()).toBe(true);

    await page.clock.fastForward(59_000);
    expect(await waiting.isDisabled()).toBe(true);
    await page.clock.fastForward(2_000);
    await reset.waitFor();
    expect(await reset.isEnabled()).toBe(true);

    // Toggling the mode clears the messages and the reset prompt.
    await page.getByRole('button', { name: 'Create an account' }).click();
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await reset.count()).toBe(0);
    await context.close();
  });
});
