import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STAFF_ROLES, type StaffRole } from '@ct/contracts';
import { BaseConfig, migrateModule, parseConfig, STORE_RULE } from '@ct/service-kit';
import { DataDirInUseError, openDb, type Db } from '@ct/store';
import { FirebaseAccounts, type Account } from '../repositories/accounts.ts';
import authService from '../app.ts';
import { RoleRepository } from '../repositories/roles.ts';
import { roleSocketPath, sendRoleCommand, type RoleLines } from './role-socket.ts';

export const ROLE_USAGE = `Usage:
  npm run role -- grant <${STAFF_ROLES.join('|')}> <email>   give the account with this e-mail a staff role
  npm run role -- revoke [role] <email>                remove its staff role
  npm run role -- list [role]                          list staff members

Writes to DATABASE_URL, or to the embedded PGlite folder DATA_DIR (default .data/pglite). While
\`npm start\` runs, the app owns that folder: the command then asks the app, through the socket
operator.sock in the folder, and the app makes the change with its own store and Auth emulator.
Accounts are looked up in Firebase: the Auth emulator at FIREBASE_AUTH_EMULATOR_HOST
(default 127.0.0.1:9099 unless real Firebase credentials are configured), or the project
FIREBASE_PROJECT_ID with GOOGLE_APPLICATION_CREDENTIALS.`;

export interface RoleCommandIo extends RoleLines {
  /** The settings that say which store and Firebase to use (default process.env; unused with a target). */
  env?: Record<string, string | undefined>;
}

/** The Firebase project accounts are looked up in: its Auth emulator's host:port, or null for the real one. */
export interface FirebaseTarget {
  projectId: string;
  emulatorHost: string | null;
}

/** The running app's own store and Firebase, when the app runs the command (the operator socket). */
export interface RoleCommandTarget {
  db: Db;
  firebase: FirebaseTarget;
}

/** A failure the operator can act on: printed as is, exit code 1. */
class CliError extends Error {}

type Parsed =
  | { cmd: 'grant'; role: StaffRole; email: string }
  | { cmd: 'revoke'; role: StaffRole | null; email: string }
  | { cmd: 'list'; role: StaffRole | null };

const isRole = (s: string | undefined): s is StaffRole => STAFF_ROLES.includes(s as StaffRole);
const looksLikeEmail = (s: string | undefined): s is string => !!s && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s);

function parse(args: string[]): Parsed | string {
  const [cmd, a, b, ...extra] = args;
  if (extra.length) return `Too many arguments: ${extra.join(' ')}`;
  const badRole = (r: string) => `Unknown role "${r}": use one of ${STAFF_ROLES.join(', ')}.`;
  const badEmail = (e: string | undefined) =>
    e ? `"${e}" is not an e-mail address.` : 'Give the e-mail address of the account.';
  switch (cmd) {
    case 'grant':
      if (!a || !isRole(a)) return a ? badRole(a) : 'Give the role to grant.';
      if (!looksLikeEmail(b)) return badEmail(b);
      return { cmd, role: a, email: b.toLowerCase() };
    case 'revoke': {
      const [role, email] = b === undefined ? [undefined, a] : [a, b];
      if (role !== undefined && !isRole(role)) return badRole(role);
      if (!looksLikeEmail(email)) return badEmail(email);
      return { cmd, role: role ?? null, email: email.toLowerCase() };
    }
    case 'list':
      if (b !== undefined) return `Too many arguments: ${b}`;
      if (a !== undefined && !isRole(a)) return badRole(a);
      return { cmd, role: a ?? null };
    default:
      return cmd ? `Unknown command "${cmd}".` : 'Give a command.';
  }
}

/** Which Firebase the command talks to, mirroring `npm start`: the emulator unless real Firebase is configured. */
function firebaseTarget(env: Record<string, string | undefined>, projectId: string): FirebaseTarget {
  if (env.FIREBASE_AUTH_EMULATOR_HOST) return { projectId, emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST };
  // Production is never pointed at an emulator by default (it would accept anyone).
  if (env.GOOGLE_APPLICATION_CREDENTIALS || env.FIREBASE_API_KEY || env.NODE_ENV === 'production')
    return { projectId, emulatorHost: null };
  return { projectId, emulatorHost: `127.0.0.1:${env.AUTH_EMULATOR_PORT ?? '9099'}` };
}

/**
 * Looks up the account of an e-mail address with firebase-admin; null when no account uses it.
 */
async function lookupAccount(
  { projectId, emulatorHost }: FirebaseTarget,
  email: string,
): Promise<Account | null> {
  // firebase-admin reads the emulator host from the process environment only.
  const previous = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!emulatorHost) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const accounts = new FirebaseAccounts({ projectId, emulatorHost });
  try {
    return await accounts.findByEmail(email);
  } catch (err) {
    const where = emulatorHost
      ? `the Firebase Auth emulator at ${emulatorHost} (is it running? \`npm start\` starts it)`
      : `Firebase project ${projectId} (check GOOGLE_APPLICATION_CREDENTIALS)`;
    throw new CliError(`Could not look up ${email} in ${where}: ${(err as Error).message}`);
  } finally {
    await accounts.close();
    if (previous === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = previous;
  }
}

/** Why this account may not be given a staff role (an unproven e-mail, a disabled account), or null. */
function grantRefusal(account: Account, email: string): string | null {
  if (account.disabled)
    return `The account ${email} is disabled: enable it in Firebase first. No role was granted.`;
  if (!account.emailVerified)
    return (
      `${email} has not verified its e-mail address: the person must open the verification link first ` +
      '(with the emulator, `npm start` prints it), so that nobody gets a role for an address they do ' +
      'not own. No role was granted.'
    );
  return null;
}

/** Opens the store to change; null when the running app owns the embedded folder and answers on its socket. */
async function open(config: BaseConfig): Promise<Db | null> {
  try {
    const db = await openDb({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolMax: 2 });
    // The first grant may come before the app ever started on this database.
    await migrateModule(db, authService);
    return db;
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      if (fs.existsSync(roleSocketPath(err.dir))) return null;
      throw new CliError(
        `Refusing to change roles while the app is running: ${err.message} ` +
          `That process takes no role commands (there is no ${roleSocketPath(err.dir)}), so roles in its ` +
          'folder can only be changed while it is stopped.',
      );
    }
    throw new CliError(`Could not open the database: ${(err as Error).message}`);
  }
}

/** Has the running app that owns the embedded folder run the command, as if it ran here. */
async function runInApp(config: BaseConfig, args: string[], io: RoleLines): Promise<number> {
  const dir = path.resolve(config.DATA_DIR);
  const socket = roleSocketPath(dir);
  try {
    return await sendRoleCommand(socket, args, io);
  } catch (err) {
    throw new CliError(
      `The app that owns the data folder ${dir} does not answer on ${socket}: ${(err as Error).message}. ` +
        'If the app crashed or hangs, stop it and run this command again: with the app stopped, the ' +
        'command changes the folder itself.',
    );
  }
}

/**
 * The operator command behind `npm run role`: grant, revoke or list staff roles, looking accounts up by
 * e-mail. Returns the process exit code (0 done, 1 refused or failed, 2 bad usage). With `target`, the
 * running app runs it with its own store and Firebase; without, it opens the store of `io.env`, or, when
 * the running embedded app owns that folder, has the app run it.
 */
export async function runRoleCommand(
  args: string[],
  io: RoleCommandIo,
  target?: RoleCommandTarget,
): Promise<number> {
  const parsed = parse(args.filter((a) => a !== '--'));
  if (typeof parsed === 'string') {
    io.err(`${parsed}\n\n${ROLE_USAGE}`);
    return 2;
  }
  if (target) return execute(parsed, target, io);
  const env = io.env ?? process.env;
  let config: BaseConfig;
  try {
    // The store and Firebase rules of the processes: no emulator and no embedded store in production.
    config = parseConfig(BaseConfig, env, [STORE_RULE]);
  } catch (err) {
    io.err((err as Error).message);
    return 1;
  }
  let db: Db | null = null;
  try {
    db = await open(config);
    if (!db) return await runInApp(config, args, io);
    return await execute(parsed, { db, firebase: firebaseTarget(env, config.FIREBASE_PROJECT_ID) }, io);
  } catch (err) {
    if (err instanceof CliError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  } finally {
    await db?.close();
  }
}

/** Runs a parsed command against a store and a Firebase project. */
async function execute(parsed: Parsed, { db, firebase }: RoleCommandTarget, io: RoleLines): Promise<number> {
  try {
    const roles = new RoleRepository(db);
    if (parsed.cmd === 'list') {
      const { rows, total } = await roles.listStaff({
        role: parsed.role ?? undefined,
        limit: 1000,
        offset: 0,
      });
      if (!total)
        io.out(parsed.role ? `No staff members with the ${parsed.role} role.` : 'No staff members.');
      for (const m of rows) io.out(`${m.role.padEnd(6)} ${m.uid}  ${m.email ?? '(e-mail not recorded)'}`);
      if (total > rows.length) io.out(`... and ${total - rows.length} more`);
      return 0;
    }

    const account = await lookupAccount(firebase, parsed.email);
    const uid = account?.uid ?? null;
    if (parsed.cmd === 'grant') {
      if (!account || !uid)
        throw new CliError(`No account uses ${parsed.email}: the person must sign up first.`);
      const refusal = grantRefusal(account, parsed.email);
      if (refusal) throw new CliError(refusal);
      const before = await roles.findRole(uid);
      if (before === parsed.role) {
        io.out(`${parsed.email} already has the ${parsed.role} role (uid ${uid}).`);
        return 0;
      }
      await roles.grantRole(uid, parsed.role, parsed.email, `cli:${os.userInfo().username}`);
      io.out(
        before
          ? `Changed ${parsed.email} from ${before} to ${parsed.role} (uid ${uid}).`
          : `Granted ${parsed.role} to ${parsed.email} (uid ${uid}).`,
      );
      return 0;
    }

    // revoke: a deleted account is still found by the e-mail recorded with its grant
    const target = uid ?? (await roles.findUidByEmail(parsed.email));
    const current = target ? await roles.findRole(target) : null;
    if (!target || !current) {
      io.out(`${parsed.email} has no staff role; nothing changed.`);
      return 0;
    }
    if (parsed.role && parsed.role !== current) {
      io.out(`${parsed.email} has the ${current} role, not ${parsed.role}; nothing changed.`);
      return 0;
    }
    await roles.revokeRole(target);
    io.out(`Revoked ${current} from ${parsed.email} (uid ${target}).`);
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
}
