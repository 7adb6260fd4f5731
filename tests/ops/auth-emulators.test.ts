import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAuthEmulator, uniqueEmail, type EmulatorHandle } from '@ct/testkit';
import { afterAll, describe, expect, it } from 'vitest';

// Two `npm start`s on different AUTH_EMULATOR_PORTs, each with its own accounts folder: firebase-tools
// finds "its" emulator hub through a locator file in the temporary folder, named by project only, so with
// one shared folder an emulator saved the other's accounts on exit, or none (scripts/lib/auth-emulator.ts,
// emulatorEnv: each gets a temporary folder of its own).
const basePort = Number(process.env.TEST_TWO_EMULATORS_PORT ?? 9330);
// A project of their own: the harness's emulator (another project) has no say in what these export.
const projectId = 'demo-two-emulators';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-two-emulators-'));
const started: EmulatorHandle[] = [];

afterAll(async () => {
  for (const e of started) await e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function signUp(host: string, email: string) {
  const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Secret-pass-123', returnSecureToken: true }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The e-mail addresses of the accounts an emulator saved into its folder on exit. */
function saved(dataDir: string): string[] {
  const file = path.join(dataDir, 'auth_export', 'accounts.json');
  if (!fs.existsSync(file)) return [];
  const { users = [] } = JSON.parse(fs.readFileSync(file, 'utf8')) as { users?: { email?: string }[] };
  return users.map((u) => u.email ?? '');
}

describe('two Auth emulators on different ports', () => {
  it('each saves only its own accounts into its own folder', async () => {
    const runs = [
      { port: basePort, dataDir: path.join(dir, 'first'), email: uniqueEmail('first') },
      { port: basePort + 10, dataDir: path.join(dir, 'second'), email: uniqueEmail('second') },
    ];
    const emulators: EmulatorHandle[] = [];
    for (const run of runs) {
      const e = await startAuthEmulator({ port: run.port, dataDir: run.dataDir, projectId });
      started.push(e);
      expect(e.owned).toBe(true);
      emulators.push(e);
    }
    for (const [i, run] of runs.entries()) await signUp(emulators[i]!.host, run.email);
    // The first started stops first, as when the older terminal gets its Ctrl+C first.
    for (const e of emulators) await e.stop();

    expect(saved(runs[0]!.dataDir)).toEqual([runs[0]!.email]);
    expect(saved(runs[1]!.dataDir)).toEqual([runs[1]!.email]);
  }, 300_000);
});
