// No sign-in dead ends, in Chromium against the Auth emulator: deep links come back after login (this
// site's paths only), a signed-in student lands on Your Colleges, "Forgot password?" is always there and
// never tells whether an account exists, the unverified-login refusal offers a new verification e-mail,
// the account menu is in the header on every page, and a session ended elsewhere (password changed) is
// explained on the login page.
import { MSG } from '@ct/contracts/messages';
import {
  browserSuite,
  createVerifiedUser,
  oobCodes,
  revokeTokens,
  signInInBrowser,
  signUp,
  uniqueEmail,
} from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const REFUSED = 'The email or password is incorrect. Check them and try again, or reset your password.';
const RESET_SENT =
  'If an account exists for that e-mail, we sent a password reset link to it. Check your inbox.';

const { gw, newPage } = browserSuite();

const loginForm = (page: Page) => page.getByRole('form', { name: 'Login' });
async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await loginForm(page).getByLabel('Email', { exact: true }).fill(email);
  await loginForm(page).getByLabel('Password', { exact: true }).fill(password);
  await loginForm(page).getByRole('button', { name: 'Login', exact: true }).click();
}
const isFocused = (l: Locator) => l.evaluate((el) => el === document.activeElement);
const codesFor = async (email: string, type: string) =>
  (await oobCodes()).filter((c) => c.email === email && c.requestType === type).length;

describe('where sign-in leads', () => {
  it('returns a deep link to its page after login, and lands on Your Colleges otherwise', async () => {
    const user = await createVerifiedUser({ name: 'Deep Link' });
    const { page, context } = await newPage();
    await page.goto('/usercolleges?college=Somewhere');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/usercolleges?college=Somewhere');
    await page.getByRole('status').getByText('Please log in to continue.').waitFor();
    await fillLogin(page, user.email, user.password);
    await page.waitForURL(
      (u) => u.pathname === '/usercolleges' && u.searchParams.get('college') === 'Somewhere',
    );
    await page.waitForSelector('html[data-session="signed-in"]', { state: 'attached' });

    // Signed in, /login has nothing to do: it goes straight on.
    await page.goto('/login?next=/profile');
    await page.waitForURL((u) => u.pathname === '/profile');
    await context.close();

    const plain = await newPage();
    await signInInBrowser(plain.page, user);
    expect(new URL(plain.page.url()).pathname).toBe('/usercolleges');
    await plain.page.getByRole('heading', { name: 'Your Colleges', level: 1 }).waitFor();
    await plain.context.close();
  });

  it.each([
    ['another site', 'https://evil.example/profile'],
    ['a protocol-relative address', '//evil.example/profile'],
    ['a backslash trick', '/\\evil.example'],
  ])('never follows %s in ?next=', async (_what, next) => {
    const user = await createVerifiedUser({ name: 'Careful' });
    const { page, context } = await newPage();
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await fillLogin(page, user.email, user.password);
    await page.waitForURL((u) => u.pathname === '/usercolleges');
    expect(new URL(page.url()).origin).toBe(new URL(gw.url).origin);
    await context.close();
  });
});

describe('the login page', () => {
  it('gives a wrong password and an unknown e-mail the same words and the same reset offer', async () => {
    const user = await createVerifiedUser({ name: 'Same Words' });
    const { page, context } = await newPage();
    await page.goto('/login');
    await fillLogin(page, user.email, 'not-the-password');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe(REFUSED);
    expect(await page.getByRole('button', { name: 'Send Password Reset Email' }).isVisible()).toBe(true);

    await page.goto('/login');
    await fillLogin(page, uniqueEmail('nobody'), 'not-the-password');
    await expect.poll(() => alert.textContent()).toBe(REFUSED);
    expect(await page.getByRole('button', { name: 'Send Password Reset Email' }).isVisible()).toBe(true);
    await context.close();
  });

  it('always offers "Forgot password?", and answers the same for an unknown e-mail', async () => {
    const user = await createVerifiedUser({ name: 'Forgetful' });
    const unknown = uniqueEmail('nobody');
    const { page, context } = await newPage();
    await page.clock.install();
    await page.goto('/login');
    const forgot = page.getByRole('button', { name: 'Forgot password?' });
    await loginForm(page).waitFor();
    expect(await forgot.isVisible()).toBe(true);

    // No e-mail yet: it asks for one and puts the cursor there.
    await forgot.click();
    await page.getByRole('alert').getByText('Enter your email address above').waitFor();
    expect(await isFocused(loginForm(page).getByLabel('Email', { exact: true }))).toBe(true);

    await loginForm(page).getByLabel('Email', { exact: true }).fill(user.email);
    await forgot.click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(RESET_SENT);
    await expect.poll(() => codesFor(user.email, 'PASSWORD_RESET')).toBe(1);
    expect(await page.getByRole('button', { name: MSG.pleaseWait }).isDisabled()).toBe(true);

    await page.clock.fastForward(61_000);
    await loginForm(page).getByLabel('Email', { exact: true }).fill(unknown);
    await forgot.click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(RESET_SENT);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await codesFor(unknown, 'PASSWORD_RESET')).toBe(0);
    await context.close();
  });

  it('offers "Resend verification e-mail" after refusing an unverified account', async () => {
    const email = uniqueEmail('unverified');
    const password = 'Secret-pass-123';
    await signUp(email, password, 'Not Yet');
    const { page, context } = await newPage();
    await page.goto('/login');
    await loginForm(page).waitFor();
    const resend = page.getByRole('button', { name: 'Resend verification e-mail' });
    expect(await resend.count()).toBe(0);
    await fillLogin(page, email, password);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(MSG.emailNotVerified);
    const before = await codesFor(email, 'VERIFY_EMAIL');
    await resend.click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe(`We sent a new verification e-mail to ${email}. Open the link in it, then log in.`);
    expect(await codesFor(email, 'VERIFY_EMAIL')).toBe(before + 1);
    // Locked like the reset link, and still signed out.
    expect(await page.getByRole('button', { name: MSG.pleaseWait }).isDisabled()).toBe(true);
    expect(await page.locator('html').getAttribute('data-session')).toBe('signed-out');
    await context.close();
  });
});

describe('the account menu', () => {
  it('is in the header on every page, says who is signed in, works with the keyboard and signs out', async () => {
    const user = await createVerifiedUser({ name: 'Menu Student' });
    const { page, context, errors } = await newPage();
    await page.goto('/about');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Sign In' }).waitFor();
    await signInInBrowser(page, user);

    const button = nav.getByRole('button', { name: 'Account menu for Menu' });
    for (const path of ['/', '/about', '/search', '/usercolleges', '/essays', '/profile', '/no-such-page']) {
      await page.goto(path);
      await button.waitFor();
      expect(await nav.getByRole('link', { name: 'Sign In' }).count(), path).toBe(0);
    }

    await page.goto('/search');
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const panel = page.locator('.account-panel');
    await panel.getByText('Signed in as').waitFor();
    expect(await panel.getByText('Menu Student').isVisible()).toBe(true);
    expect(await panel.getByText(user.email).isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await isFocused(panel.getByRole('link', { name: 'Profile' }))).toBe(true);
    await page.keyboard.press('Escape');
    expect(await panel.isVisible()).toBe(false);
    expect(await isFocused(button)).toBe(true);

    await page.keyboard.press('Space');
    await panel.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
    expect(await panel.isVisible()).toBe(false);

    await button.click();
    await panel.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    await nav.getByRole('link', { name: 'Sign In' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a session ended elsewhere', () => {
  it('is explained on the login page, which brings the student back afterwards', async () => {
    const user = await createVerifiedUser({ name: 'Changed Elsewhere' });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Changed Elsewhere' }).waitFor();
    // What a password change on another device does: every session issued before it is revoked.
    await revokeTokens(user.uid);
    await new Promise((r) => setTimeout(r, 1100));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Your Colleges' }).click();
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === '/usercolleges');
    await page
      .getByRole('status')
      .getByText(
        'You were signed out because your password was changed or your sessions were ended on another device. Please log in again.',
      )
      .waitFor();
    await fillLogin(page, user.email, user.password);
    await page.waitForURL((u) => u.pathname === '/usercolleges');
    await page.waitForSelector('html[data-session="signed-in"]', { state: 'attached' });
    await context.close();
  });
});
