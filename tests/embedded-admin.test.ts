import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createVerifiedUser, emulatorUp, signIn } from '@ct/testkit';
import { roleSocketPath } from '../services/auth/src/cli/role-socket.ts';
import { afterAll, describe, expect, it } from 'vitest';

// The operator's path to the first admin on the embedded run, as the README gives it: `npm start`, sign up,
// `npm run role -- grant admin <e-mail>` (the running app makes the change), or the same with the app stopped.
// The embedded run owns its own Auth emulator here (no FIREBASE_AUTH_EMULATOR_HOST), on its own port.
const ROOT = path.resolve(import.meta.dirname, '..');
const appPort = Number(process.env.TEST_EMBEDDED_ADMIN_PORT ?? 17190);
const emulatorPort = Number(process.env.TEST_EMBEDDED_ADMIN_EMULATOR_PORT ?? 9399);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-embedded-admin-'));
// Its own project id: the Firebase CLI finds running emulators by project id, and the harness's emulator
// (another project) must not be the one that exports on Ctrl+C.
const projectId = 'demo-embedded-admin';
const env = {
  ...process.env,
  FIREBASE_PROJECT_ID: projectId,
  PORT: String(appPort),
  DATA_DIR: path.join(dataDir, 'pglite'),
  AUTH_EMULATOR_DATA_DIR: path.join(dataDir, 'auth-emulator'),
  AUTH_EMULATOR_PORT: String(emulatorPort),
  FIREBASE_AUTH_EMULATOR_HOST: '',
  DATABASE_URL: '',
  REDIS_URL: '',
  NODE_ENV: 'development',
};
const running = new Set<ChildProcess>();

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn('npm', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => out, exited };
}

async function startApp() {
  const app = run(['start']);
  const deadline = Date.now() + 150_000;
  while (!app.output().includes('is running')) {
    if (app.child.exitCode !== null) throw new Error(`npm start exited:\n${app.output()}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${app.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return app;
}

/** Fails with what the process printed when it does not end in time. */
async function within<T>(ms: number, what: string, p: Promise<T>, output: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms:\n${output()}`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Ctrl+C in a terminal: SIGINT to the whole foreground process group. */
async function stopApp(app: Awaited<ReturnType<typeof startApp>>) {
  process.kill(-app.child.pid!, 'SIGINT');
  await stopped(app);
}

async function stopped(app: Awaited<ReturnType<typeof startApp>>) {
  await within(60_000, 'stopping npm start', app.exited, app.output);
  // npm returns at once; the start script goes on to stop the emulator, which exports its accounts first.
  const deadline = Date.now() + 60_000;
  while (await emulatorUp(`127.0.0.1:${emulatorPort}`)) {
    if (Date.now() > deadline) throw new Error(`the Auth emulator did not stop:\n${app.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function role(...args: string[]) {
  const r = run(['run', 'role', '--', ...args]);
  const code = await within(90_000, 'npm run role', r.exited, r.output);
  return { code, output: r.output() };
}

const staffRole = async (idToken: string) => {
  const res = await fetch(`http://localhost:${appPort}/api/get-staff-roles`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  return { status: res.status, body: (await res.json()) as { message: string; role?: string } };
};

afterAll(() => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('granting the first admin on the embedded run', () => {
  it('makes a student an admin while the app runs or is stopped, and keeps accounts across a restart', async () => {
    const previous = {
      host: process.env.FIREBASE_AUTH_EMULATOR_HOST,
      project: process.env.FIREBASE_PROJECT_ID,
    };
    process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${emulatorPort}`;
    process.env.FIREBASE_PROJECT_ID = projectId;
    try {
      let app = await startApp();
      expect(app.output()).toContain('npm run role -- grant admin');
      const user = await createVerifiedUser({ name: 'Future Admin' });
      // The emulator sends no e-mail: npm start shows the verification link it would have sent.
      await fetch(
        `http://127.0.0.1:${emulatorPort}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=test`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ requestType: 'VERIFY_EMAIL', idToken: user.idToken }),
        },
      );
      await expect
        .poll(app.output, { timeout: 10_000 })
        .toContain(
          `Auth emulator: to verify ${user.email}, open http://127.0.0.1:${emulatorPort}/emulator/action?mode=verifyEmail`,
        );
      const before = await staffRole(user.idToken);
      expect(before.body.role).not.toBe('admin');

      // While the app runs the embedded store is its own: the command has the app make the change, and the
      // student is an admin on their next call, with no restart.
      const live = await role('grant', 'admin', user.email);
      expect(live.code, live.output).toBe(0);
      expect(live.output).toContain(`Granted admin to ${user.email} (uid ${user.uid}).`);
      expect((await staffRole(user.idToken)).body).toMatchObject({ role: 'admin' });
      const listed = await role('list');
      expect(listed.code, listed.output).toBe(0);
      expect(listed.output).toContain(`admin  ${user.uid}  ${user.email}`);
      const bad = await role('grant', 'admin', 'not-an-email');
      expect(bad.code).toBe(2);
      expect(bad.output).toContain('"not-an-email" is not an e-mail address.');
      expect(bad.output).toContain('Usage:');
      const revoked = await role('revoke', user.email);
      expect(revoked.code, revoked.output).toBe(0);
      expect(revoked.output).toContain(`Revoked admin from ${user.email} (uid ${user.uid}).`);
      expect((await staffRole(user.idToken)).body).toMatchObject({ role: null });

      await stopApp(app);
      // Ctrl+C takes the app's socket away with it.
      expect(fs.existsSync(roleSocketPath(env.DATA_DIR))).toBe(false);
      const exported = path.join(dataDir, 'auth-emulator', 'auth_export', 'accounts.json');
      expect(fs.readFileSync(exported, 'utf8'), app.output().slice(-3000)).toContain(user.email);

      const grant = await role('grant', 'admin', user.email);
      expect(grant.code, grant.output).toBe(0);
      expect(grant.output).toContain(`Granted admin to ${user.email}`);

      app = await startApp();
      // The saved accounts come back with their old links; those are not printed a second time.
      await new Promise((r) => setTimeout(r, 2500));
      expect(app.output()).not.toContain('Auth emulator: to verify');
      // The account came back with the restart: the same password signs in with the same uid.
      const token = await signIn(user.email, user.password);
      const after = await staffRole(token);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ message: 'Staff Role Found for User', role: 'admin' });

      // The app crashes: its socket stays behind, nobody answers on it, and the command opens the folder
      // itself (the crashed process's claim on it is stale).
      const gatewayPid = Number(fs.readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8'));
      process.kill(gatewayPid, 'SIGKILL');
      await stopped(app);
      expect(fs.existsSync(roleSocketPath(env.DATA_DIR))).toBe(true);
      const afterCrash = await role('list');
      expect(afterCrash.code, afterCrash.output).toBe(0);
      expect(afterCrash.output).toContain(`admin  ${user.uid}  ${user.email}`);
    } finally {
      if (previous.host === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
      else process.env.FIREBASE_AUTH_EMULATOR_HOST = previous.host;
      if (previous.project === undefined) delete process.env.FIREBASE_PROJECT_ID;
      else process.env.FIREBASE_PROJECT_ID = previous.project;
    }
  }, 600_000);
});
