import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, newPage } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README's run command, `npm start`, as a newcomer runs it: the embedded default on its own data folder.
const port = Number(process.env.TEST_START_PORT ?? 17180);
let child: ChildProcess;
let output = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-start-'));

beforeAll(async () => {
  child = spawn('npm', ['start'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
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
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const deadline = Date.now() + 150_000;
  while (!output.includes('is running')) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
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

  it('answers GET /api/healthz with 200 and is ready', async () => {
    expect((await fetch(`http://localhost:${port}/api/healthz`)).status).toBe(200);
    const ready = await fetch(`http://localhost:${port}/api/readyz`);
    expect(ready.status).toBe(200);
  });

  it('answers while the first start loads the college data, which then completes', async () => {
    // The load runs in the background: the app is up (and says so) before the data line is printed.
    expect(output).not.toContain('College data loaded');
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
