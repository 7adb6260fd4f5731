// Identity through the gateway against the real Auth emulator: verification, revocation, disabled
// accounts, and staff roles granted with the operator command.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MSG } from '@ct/contracts';
import {
  applyVerificationCode,
  createVerifiedUser,
  disableUser,
  emulatorHost,
  gatewaySuite,
  revokeTokens,
  signIn,
  signUp,
  uniqueEmail,
} from '@ct/testkit';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const { gw } = gatewaySuite({ queue: 'memory' });

/** What the web SDK's sendEmailVerification does. */
async function sendVerificationEmail(idToken: string): Promise<void> {
  const res = await fetch(
    `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=test`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestType: 'VERIFY_EMAIL', idToken }),
    },
  );
  expect(res.status).toBe(200);
}

const me = (token: string) => gw.api<{ success: boolean; message: string }>('GET', '/api/me', { token });
const staffRole = (token: string) =>
  gw.api<{ success: boolean; message: string; data?: string }>('GET', '/api/get-staff-roles', { token });

/** Runs the real operator command, `npm run role -- ...`, against this test's database. */
function roleCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'role', '--', ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: gw.database!.url,
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('e-mail verification', () => {
  it('refuses an unverified account until the emulated e-mail link is followed', async () => {
    const email = uniqueEmail('verify');
    const user = await signUp(email, 'Secret-pass-123', 'Vera');
    await sendVerificationEmail(user.idToken);

    const refused = await me(user.idToken);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, message: MSG.emailNotVerified });

    await applyVerificationCode(email);
    const token = await signIn(email, 'Secret-pass-123');
    const accepted = await me(token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ success: true, data: { uid: user.uid, email } });
  });
});

describe('ended sessions', () => {
  it('refuses a token after its sessions were revoked, and accepts a fresh sign-in', async () => {
    const user = await createVerifiedUser({ name: 'Rev' });
    expect((await me(user.idToken)).status).toBe(200);
    await revokeTokens(user.uid);
    // validSince is one second ahead (what revokeRefreshTokens records); wait until it is in the past.
    await new Promise((r) => setTimeout(r, 1100));
    const r = await me(user.idToken);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, message: expect.stringMatching(/revoked/) });
    expect((await me(await signIn(user.email, user.password))).status).toBe(200);
  });

  it('refuses a disabled account, and the provider refuses it a new token', async () => {
    const user = await createVerifiedUser({ name: 'Dis' });
    expect((await me(user.idToken)).status).toBe(200);
    await disableUser(user.uid);
    const r = await me(user.idToken);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, message: 'Your account has been disabled.' });
    await expect(signIn(user.email, user.password)).rejects.toThrow(/USER_DISABLED/);
  });
});

describe('staff roles', () => {
  it('is not admin until an operator grants the role with `npm run role`, and not after revoking', async () => {
    const user = await createVerifiedUser({ name: 'Future Admin' });
    const before = await staffRole(user.idToken);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ success: true, data: null });
    expect((await gw.api('GET', '/api/admin/metrics', { token: user.idToken })).status).toBe(403);

    const granted = await roleCli('grant', 'admin', user.email.toUpperCase());
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(`Granted admin to ${user.email} (uid ${user.uid})`);

    const after = await staffRole(user.idToken);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ success: true, message: MSG.staffRoleFound, role: 'admin', data: 'admin' });
    expect((await gw.api('GET', '/api/admin/metrics', { token: user.idToken })).status).not.toBe(403);

    const listed = await roleCli('list');
    expect(listed.stdout).toMatch(new RegExp(`admin\\s+${user.uid}\\s+${user.email}`));

    const revoked = await roleCli('revoke', user.email);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked admin from ${user.email}`);
    expect((await staffRole(user.idToken)).body).toMatchObject({ success: true, data: null });
    expect((await gw.api('GET', '/api/admin/metrics', { token: user.idToken })).status).toBe(403);
  });

  it('the operator command refuses an unknown e-mail and bad usage, changing nothing', async () => {
    const unknown = await roleCli('grant', 'admin', uniqueEmail('nobody'));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No account uses .* the person must sign up first/);
    const bad = await roleCli('grant', 'superuser', 'someone@example.com');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown role "superuser"');
    expect(bad.stderr).toContain('Usage:');
    const rows = await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.staff_roles WHERE email = 'someone@example.com' OR email LIKE 'nobody-%'`,
    );
    expect(rows.rows[0]?.n).toBe(0);
  });
});
