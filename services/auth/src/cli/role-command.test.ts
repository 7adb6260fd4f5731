import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createVerifiedUser,
  DEFAULT_PROJECT_ID,
  disableUser,
  emulatorHost,
  freshDatabase,
  signUp,
  uniqueEmail,
  type TestDatabase,
} from '@ct/testkit';
import { migrateModule } from '@ct/service-kit';
import { openDb } from '@ct/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import authService from '../app.ts';
import { runRoleCommand } from './role-command.ts';
import { roleSocketPath, serveRoleCommands } from './role-socket.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

/** Runs the command in-process and collects what an operator would read. */
async function role(env: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRoleCommand(args, {
    env: { FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(), ...env },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Runs the real operator command, `npm run role -- ...` (scripts/role.ts), in a process of its own. */
function cli(env: Record<string, string>, ...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/role.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, out: out.trim(), err: err.trim() })),
  );
}

/** What an app that crashed leaves in its data folder: a socket file nobody listens on. */
async function crashedSocket(socketPath: string) {
  const child = spawn(process.execPath, [
    '-e',
    `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
  ]);
  await new Promise((resolve) => child.once('exit', resolve));
  expect(fs.lstatSync(socketPath).isSocket()).toBe(true);
}

describe('role command on the embedded PGlite store', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-role-cli-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses while the app owns the data folder, then grants once it is stopped', async () => {
    const dataDir = path.join(dir, 'pglite');
    const user = await createVerifiedUser({ name: 'Pat Operator' });
    const app = await openDb({ dataDir });
    const refused = await role({ DATA_DIR: dataDir }, 'grant', 'admin', user.email);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('Refusing to change roles while the app is running');
    expect(refused.err).toContain(dataDir);
    await app.close();

    const granted = await role({ DATA_DIR: dataDir }, 'grant', 'admin', user.email);
    expect(granted.err).toBe('');
    expect(granted.code).toBe(0);
    const db = await openDb({ dataDir });
    try {
      const rows = await db.query<{ uid: string; role: string; email: string }>(
        'SELECT uid, role, email FROM auth.staff_roles',
      );
      expect(rows.rows).toEqual([{ uid: user.uid, role: 'admin', email: user.email }]);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('while the app owns the folder, has the app run it with its own store and Auth emulator', async () => {
    const dataDir = path.join(dir, 'served');
    // The app: its store, and the role commands served on its data folder (as the embedded gateway does).
    const app = await openDb({ dataDir });
    await migrateModule(app, authService);
    // A folder others may write to (umask 002), and a socket left there by a run that crashed.
    fs.chmodSync(dataDir, 0o775);
    await crashedSocket(roleSocketPath(dataDir));
    const firebase = { projectId: DEFAULT_PROJECT_ID, emulatorHost: emulatorHost() };
    const served = await serveRoleCommands(
      dataDir,
      (args, io) => runRoleCommand(args, io, { db: app, firebase }),
      { warn: () => {}, error: () => {} },
    );
    expect(served).not.toBeNull();
    try {
      // Only this user can reach it: the socket is theirs alone, in a folder nobody else may write.
      expect(fs.statSync(roleSocketPath(dataDir)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dataDir).mode & 0o022).toBe(0);
      const user = await createVerifiedUser({ name: 'Live Admin' });
      // The command's own settings point nowhere: the lookup is the app's, with the app's emulator.
      const env = { DATA_DIR: dataDir, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1' };
      const granted = await cli(env, 'grant', 'admin', user.email);
      expect(granted.err).toBe('');
      expect(granted).toMatchObject({ code: 0, out: `Granted admin to ${user.email} (uid ${user.uid}).` });
      const rows = await app.query('SELECT uid, role, email FROM auth.staff_roles');
      expect(rows.rows).toEqual([{ uid: user.uid, role: 'admin', email: user.email }]);

      const listed = await cli(env, 'list');
      expect(listed.code).toBe(0);
      expect(listed.out).toBe(`admin  ${user.uid}  ${user.email}`);

      const bad = await cli(env, 'grant', 'admin', 'not-an-email');
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('"not-an-email" is not an e-mail address.');
      expect(bad.err).toContain('Usage:');

      const unverified = await signUp(uniqueEmail('unverified'), 'Secret-pass-123');
      const refused = await cli(env, 'grant', 'staff', unverified.email);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`${unverified.email} has not verified its e-mail address`);

      const revoked = await cli(env, 'revoke', user.email);
      expect(revoked).toMatchObject({ code: 0, out: `Revoked admin from ${user.email} (uid ${user.uid}).` });
      expect((await app.query('SELECT uid FROM auth.staff_roles')).rows).toEqual([]);
    } finally {
      await served?.close();
      await app.close();
    }
    // Stopped: the socket is gone, and the command opens the folder itself again.
    expect(fs.existsSync(roleSocketPath(dataDir))).toBe(false);
    const after = await role({ DATA_DIR: dataDir }, 'list');
    expect(after).toMatchObject({ code: 0, out: 'No staff members.' });
  }, 240_000);

  it('says plainly, without waiting, when the process that owns the folder does not answer', async () => {
    const dataDir = path.join(dir, 'stale');
    const owner = await openDb({ dataDir });
    try {
      await crashedSocket(roleSocketPath(dataDir));
      const r = await cli({ DATA_DIR: dataDir }, 'list');
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        `The app that owns the data folder ${dataDir} does not answer on ${roleSocketPath(dataDir)}: ` +
          'nothing listens there. If the app crashed or hangs, stop it and run this command again: with the ' +
          'app stopped, the command changes the folder itself.',
      );
    } finally {
      await owner.close();
    }
  }, 120_000);
});

describe('role command on Postgres', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await freshDatabase('rolecli');
    env = { DATABASE_URL: database.url };
  });
  afterAll(() => database?.drop());

  it('changes a role, says when nothing changes, and lists by role', async () => {
    const user = await createVerifiedUser({ name: 'Sam Staff' });
    expect((await role(env, 'grant', 'staff', user.email)).out).toBe(
      `Granted staff to ${user.email} (uid ${user.uid}).`,
    );
    expect((await role(env, 'grant', 'staff', user.email)).out).toBe(
      `${user.email} already has the staff role (uid ${user.uid}).`,
    );
    expect((await role(env, 'grant', 'admin', user.email)).out).toBe(
      `Changed ${user.email} from staff to admin (uid ${user.uid}).`,
    );
    expect((await role(env, 'list', 'staff')).out).toBe('No staff members with the staff role.');
    expect((await role(env, 'list', 'admin')).out).toContain(user.uid);

    const wrongRole = await role(env, 'revoke', 'staff', user.email);
    expect(wrongRole.out).toBe(`${user.email} has the admin role, not staff; nothing changed.`);
    expect((await role(env, 'list', 'admin')).out).toContain(user.uid);
    expect((await role(env, 'revoke', 'admin', user.email)).out).toBe(
      `Revoked admin from ${user.email} (uid ${user.uid}).`,
    );
    expect((await role(env, 'revoke', user.email)).out).toBe(
      `${user.email} has no staff role; nothing changed.`,
    );
  });

  it('explains bad usage with exit code 2', async () => {
    for (const args of [
      [],
      ['promote', 'a@b.co'],
      ['grant', 'admin'],
      ['grant', 'admin', 'not-an-email'],
      ['list', 'root'],
    ]) {
      const r = await role(env, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain('Usage:');
    }
  });

  it('grants only to an account whose e-mail is verified and that is not disabled', async () => {
    const db = await openDb({ url: database.url });
    const count = async (uid: string) =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.staff_roles WHERE uid = $1', [uid]))
        .rows[0]!.n;
    // Anyone can sign up with someone else's address; until the link in that inbox is opened, it is not theirs.
    const unverified = await signUp(uniqueEmail('unverified'), 'Secret-pass-123', 'Not Verified');
    const r1 = await role(env, 'grant', 'admin', unverified.email);
    expect(r1.code).toBe(1);
    expect(r1.err).toBe(
      `${unverified.email} has not verified its e-mail address: the person must open the verification link ` +
        'first (with the emulator, `npm start` prints it), so that nobody gets a role for an address they do ' +
        'not own. No role was granted.',
    );
    expect(await count(unverified.uid)).toBe(0);

    const disabled = await createVerifiedUser({ name: 'Dis Abled' });
    await disableUser(disabled.uid);
    const r2 = await role(env, 'grant', 'staff', disabled.email);
    expect(r2.code).toBe(1);
    expect(r2.err).toBe(
      `The account ${disabled.email} is disabled: enable it in Firebase first. No role was granted.`,
    );
    expect(await count(disabled.uid)).toBe(0);
    // Taking a role away needs neither.
    await db.query(
      `INSERT INTO auth.staff_roles (uid, role, email, granted_by) VALUES ($1, 'staff', $2, 'test')`,
      [disabled.uid, disabled.email],
    );
    await db.close();
    expect((await role(env, 'revoke', disabled.email)).out).toBe(
      `Revoked staff from ${disabled.email} (uid ${disabled.uid}).`,
    );
  });

  it('refuses the Auth emulator and the embedded store with NODE_ENV=production', async () => {
    const user = await createVerifiedUser({ name: 'Prod Op' });
    const r = await role({ ...env, NODE_ENV: 'production' }, 'grant', 'admin', user.email);
    expect(r.code).toBe(1);
    expect(r.err).toContain('FIREBASE_AUTH_EMULATOR_HOST: must be empty when NODE_ENV=production');
    const embedded = await role(
      { NODE_ENV: 'production', FIREBASE_AUTH_EMULATOR_HOST: '', DATA_DIR: 'memory://' },
      'list',
    );
    expect(embedded.code).toBe(1);
    expect(embedded.err).toContain('DATABASE_URL: is required when NODE_ENV=production');
  });

  it('says plainly when the Auth emulator cannot be reached', async () => {
    const r = await role(
      { ...env, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1' },
      'grant',
      'admin',
      'a@example.com',
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Could not look up a@example.com in the Firebase Auth emulator at 127.0.0.1:1/);
  });
});
