import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_PROJECT_ID = 'demo-college-tracker';

export interface EmulatorHandle {
  /** host:port, the value of FIREBASE_AUTH_EMULATOR_HOST */
  host: string;
  projectId: string;
  /** True when this call started the emulator (and stop() will end it). */
  owned: boolean;
  stop(): Promise<void>;
}

/** Whether an Auth emulator answers at host:port. */
export async function emulatorUp(host: string): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return res.status < 500;
  } catch {
    return false;
  }
}

/**
 * Whether a student could sign in through the Auth emulator now: a password sign-in for an address with no
 * account gets the provider's own refusal (EMAIL_NOT_FOUND, or INVALID_LOGIN_CREDENTIALS with e-mail
 * privacy on). Its port answering is not enough: the sign-in endpoints answer only once it has started.
 */
export async function signInWorks(host: string): Promise<boolean> {
  try {
    const res = await fetch(
      `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=sign-in-check`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'sign-in-check@example.invalid',
          password: 'not-a-password',
          returnSecureToken: true,
        }),
        signal: AbortSignal.timeout(5000),
      },
    );
    const body = (await res.json()) as { error?: { message?: string } };
    return res.status === 400 && /EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/.test(body.error?.message ?? '');
  } catch {
    return false;
  }
}

/**
 * The emulator's environment. firebase-tools writes its hub locator file (`hub-<project>.json`) to the
 * temporary folder and, on exit, exports the accounts of whichever hub that file names: with one shared
 * folder, a second `npm start` on another AUTH_EMULATOR_PORT replaced the first's file, and the first then
 * exported the second's accounts into its own folder. Each emulator gets its own temporary folder.
 */
export function emulatorEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TMPDIR: dir,
    NO_UPDATE_NOTIFIER: '1',
    FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true',
    CI: 'true',
  };
}

/**
 * Starts the official Firebase Auth Emulator (firebase-tools) on `port`, or reuses one already listening
 * there. Its hub and logging ports are derived from `port` so a test run and a dev run can coexist.
 */
export async function startAuthEmulator(
  opts: {
    port?: number;
    projectId?: string;
    log?: (line: string) => void;
    /** Keep accounts between runs: imported from this folder at start, exported to it on a clean stop. */
    dataDir?: string;
  } = {},
): Promise<EmulatorHandle> {
  const port = opts.port ?? 9099;
  const projectId = opts.projectId ?? DEFAULT_PROJECT_ID;
  const host = `127.0.0.1:${port}`;
  if (await emulatorUp(host)) return { host, projectId, owned: false, stop: async () => {} };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-auth-emulator-'));
  fs.writeFileSync(
    path.join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: port + 1 },
        logging: { host: '127.0.0.1', port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const bin = path.join(ROOT, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      bin,
      'emulators:start',
      '--only',
      'auth',
      '--project',
      projectId,
      ...(opts.dataDir ? ['--import', path.resolve(opts.dataDir), '--export-on-exit'] : []),
    ],
    {
      cwd: dir,
      env: emulatorEnv(dir),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  const collect = (b: Buffer) => {
    output += b.toString();
    opts.log?.(b.toString());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Auth emulator exited (${child.exitCode}):\n${output}`);
    if (await emulatorUp(host)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!(await emulatorUp(host))) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    throw new Error(`Auth emulator did not start within 90 s:\n${output}`);
  }
  return {
    host,
    projectId,
    owned: true,
    async stop() {
      if (child.exitCode !== null) return;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(
        () => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            /* gone */
          }
        },
        opts.dataDir ? 20_000 : 5000,
      ); // leave time to export the accounts
      await exited;
      clearTimeout(timer);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
