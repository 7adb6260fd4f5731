import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, newPage } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWorks } from '../scripts/lib/auth-emulator.ts';

// The README's run command, `npm start`, as a newcomer runs it: the embedded default on its own data folder,
// with the Auth emulator it starts itself (cold, as on a first start).
const port = Number(process.env.TEST_START_PORT ?? 17180);
const authPort = Number(process.env.TEST_START_AUTH_PORT ?? port + 10);
let child: ChildProcess;
let output = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-start-'));
/** What a student would meet at the moment the "open http://localhost" line appears. */
let atRunning: Promise<{ signIn: boolean; ready: number }> | null = null;
/** The gateway answered /api/healthz while the first start was still loading the college data. */
let answeredWhileLoading = false;

beforeAll(async () => {
  const { FIREBASE_AUTH_EMULATOR_HOST: _testEmulator, ...env } = process.env;
  child = spawn('npm', ['start'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...env,
      AUTH_EMULATOR_PORT: String(authPort),
      AUTH_EMULATOR_DATA_DIR: path.join(dataDir, 'auth'),
      PORT: String(port),
      DATA_DIR: path.join(dataDir, 'pglite'),
      DATABASE_URL: '',
      REDIS_URL: '',
      NODE_ENV: 'development',
      // A first start, as a newcomer's: the shipped college data loads on the empty data folder.
      LOAD_SNAPSHOT: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (b: Buffer) => {
    output += b.toString();
    // Checked the moment the line is printed, not after the test's next poll.
    if (!atRunning && output.includes('is running'))
      atRunning = Promise.all([
        signInWorks(`127.0.0.1:${authPort}`),
        fetch(`http://localhost:${port}/api/readyz`).then((r) => r.status),
      ]).then(([signIn, ready]) => ({ signIn, ready }));
  });
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const deadline = Date.now() + 150_000;
  while (!output.includes('is running')) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    if (!answeredWhileLoading) {
      const loading = !output.includes('College data loaded');
      const ok = await fetch(`http://localhost:${port}/api/healthz`, { signal: AbortSignal.timeout(1000) })
        .then((r) => r.ok)
        .catch(() => false);
      answeredWhileLoading = ok && loading && !output.includes('College data loaded');
    }
    // Often until the first answer: on a fast machine the load may end a second after the gateway listens
    // (it yields between batches, so a request waits at most one batch).
    await new Promise((r) => setTimeout(r, answeredWhileLoading ? 250 : 20));
  }
}, 180_000);

const running = () => child && child.exitCode === null && child.signalCode === null;

afterAll(() => {
  if (running()) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (embedded run)', () => {
  it('prints where to open the app and how to stop it', () => {
    expect(output).toContain(`http://localhost:${port}`);
    expect(output).toContain('Ctrl+C');
  });

  it('says it is running only once a student can sign in (the emulator it started answers sign-ins)', async () => {
    expect(output).toContain(`Firebase Auth emulator at 127.0.0.1:${authPort}`);
    expect(await atRunning).toEqual({ signIn: true, ready: 200 });
  });

  it('says the college data is loaded before it says it is running (readyz waits for it)', () => {
    const loaded = output.indexOf('College data loaded');
    expect(loaded).toBeGreaterThan(-1);
    expect(loaded).toBeLessThan(output.indexOf('is running'));
  });

  it('answers GET /api/healthz with 200 and is ready', async () => {
    expect((await fetch(`http://localhost:${port}/api/healthz`)).status).toBe(200);
    const ready = await fetch(`http://localhost:${port}/api/readyz`);
    expect(ready.status).toBe(200);
  });

  it('answers while the first start loads the college data, which then completes', async () => {
    // The load runs in the background: the gateway answers before the data line is printed. ("is running"
    // itself may come later: it waits for the Auth emulator's first start.)
    expect(answeredWhileLoading).toBe(true);
    const deadline = Date.now() + 120_000;
    while (!output.includes('College data loaded')) {
      if (Date.now() > deadline) throw new Error(`the college data did not load:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(output).toMatch(/College data loaded: 6,\d{3} colleges/);
  });

  it('renders the app at / in headless Chromium', async () => {
    const browser = await launchBrowser();
    try {
      const { page } = await newPage(browser, `http://localhost:${port}`);
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await page.title()).toContain('College Ready');
    } finally {
      await browser.close();
    }
  });

  it('stops on Ctrl+C and frees the port', async () => {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    expect(output).toContain('Stopping');
    await expect(fetch(`http://localhost:${port}/api/healthz`)).rejects.toThrow();
  });
});
