// A fresh clone as a newcomer gets it: the committed tree alone in a folder with no `shared` data beside it,
// no API keys, `npm start` on an empty embedded store. Any College Scorecard institution must then be
// suggested, shown with its official figures and net price, and added with a requirements checklist.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MSG } from '@ct/contracts';
import { createVerifiedUser, newPage, sharedBrowser, signInInBrowser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const port = Number(process.env.TEST_START_PORT ?? 17180) + 5;
const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-fresh-'));
const clone = path.join(parent, 'college-ready');
let child: ChildProcess;
let output = '';
const browser = sharedBrowser();

/**
 * The committed tree (git ls-files) copied file by file, then node_modules hard-linked from this checkout
 * (cp -al: same filesystem, no download). Workspace links inside node_modules are relative, so they lead
 * to the copy's own packages. The built web app is linked too (building it is `npm start`'s business,
 * tested elsewhere), marked newer than the copied sources so it is not rebuilt.
 */
function freshClone(): void {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const f of tracked) {
    const from = path.join(ROOT, f);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    fs.copyFileSync(from, path.join(clone, f));
  }
  const modules = execFileSync(
    'find',
    ['.', '-maxdepth', '3', '-name', 'node_modules', '-type', 'd', '-not', '-path', './node_modules/*'],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean);
  for (const m of [...modules, './web/dist']) {
    if (!fs.existsSync(path.join(ROOT, m))) continue;
    fs.mkdirSync(path.dirname(path.join(clone, m)), { recursive: true });
    execFileSync('cp', ['-al', path.join(ROOT, m), path.join(clone, m)]);
  }
  const index = path.join(clone, 'web/dist/index.html');
  if (fs.existsSync(index)) {
    // A hard link shares its inode (and time stamp) with the checkout's file: replace it by a copy first.
    const html = fs.readFileSync(index);
    fs.rmSync(index);
    fs.writeFileSync(index, html);
  }
}

beforeAll(async () => {
  freshClone();
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: path.join(parent, 'pglite'),
    NODE_ENV: 'development',
  };
  // No keys, no operator files, no test-suite switches: what a fresh machine has. (The Auth emulator of the
  // test run is reused: signing in is not what this test is about.)
  for (const k of [
    'DATABASE_URL',
    'REDIS_URL',
    'LOAD_SNAPSHOT',
    'ESSAY_PROMPTS_FILE',
    'LOCAL_DEADLINES_FILE',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'SCORECARD_API_KEY',
    'SCORECARD_API_URL',
  ])
    delete env[k];
  child = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const deadline = Date.now() + 240_000;
  // The first start loads the snapshot in the background and says so in one line when done.
  while (!output.includes('is running') || !output.includes('College data loaded')) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 300_000);

afterAll(async () => {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* the process group is gone already */
    }
  };
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    signal('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    signal('SIGKILL');
  }
  fs.rmSync(parent, { recursive: true, force: true });
}, 60_000);

describe('a fresh clone with no shared data and no keys', () => {
  it('runs from its own files, with nothing beside it to read', () => {
    expect(fs.existsSync(path.join(parent, 'shared'))).toBe(false);
    expect(fs.realpathSync(path.join(clone, 'node_modules/@ct/colleges'))).toBe(
      path.join(clone, 'services/colleges'),
    );
    // The first start loaded the shipped snapshot and said so in one line.
    const lines = output.split('\n').filter((l) => l.includes('College data loaded'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /College data loaded: 6,543 colleges from the College Scorecard snapshot \(2021-22\)/,
    );
  });

  it('suggests, shows official figures and net price, and adds any Scorecard college with its checklist', async () => {
    const user = await createVerifiedUser({ name: 'Fresh Student' });
    const { page, errors } = await newPage(browser, `http://localhost:${port}`);
    await signInInBrowser(page, user);
    await page.goto('/search');
    await page.getByRole('heading', { name: 'Search and Compare Colleges' }).waitFor();

    // Suggestions from the snapshot for a prefix.
    const input = page.getByRole('combobox', { name: 'College name' });
    await input.pressSequentially('Harv');
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    await list.getByRole('option', { name: 'Harvard University' }).click();
    await page.getByRole('button', { name: 'Search/Add College' }).click();

    const card = page.getByRole('article', { name: 'Harvard University' });
    await card.waitFor({ timeout: 20_000 });
    const region = (name: string) => card.getByRole('region', { name, exact: true });
    // Official figures, with the year they describe.
    await expect.poll(() => region('Demographics').innerText()).toContain('Cambridge');
    expect(await region('Demographics').innerText()).toMatch(
      /College Scorecard, U\.S\. Department of Education, 2021-22/,
    );
    // Net price by family income (Harvard's $30,001-$48,000 band is negative: grants exceed the cost).
    expect(await region('Financial Breakdown').innerText()).toContain('$0: grants exceed the cost by $273');
    // Requirements from the Common App grid.
    const requirements = await region('Requirements').innerText();
    expect(requirements).toContain('2 teacher evaluations required');
    expect(requirements).toContain('$90');

    await card.getByRole('button', { name: 'Add to Profile' }).click();
    await card.getByText(MSG.collegeAdded).waitFor();

    await page.goto('/usercolleges');
    // The sidebar's entry (the season overview beside it names the college too).
    await page
      .getByRole('complementary', { name: 'Your Colleges' })
      .getByRole('button', { name: 'Harvard University', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Checklist — Harvard University' }).waitFor();
    const checklist = page.getByRole('region', { name: /^Checklist/ });
    await checklist.getByText('Pay the application fee ($90) or request a fee waiver').waitFor();
    expect(
      await checklist
        .getByText('Ask your teachers for recommendations (2 teacher evaluations required)')
        .count(),
    ).toBe(1);
    expect(
      await checklist
        .getByText('Check the SAT/ACT policy (Required) and decide whether to send scores')
        .count(),
    ).toBe(1);

    // A college far from the Common App grid is there too, with its figures.
    await page.goto('/search');
    await page.getByRole('combobox', { name: 'College name' }).pressSequentially('Miami Dade');
    await page
      .getByRole('listbox', { name: 'Suggestions' })
      .getByRole('option', { name: 'Miami Dade College' })
      .waitFor();
    expect(errors).toEqual([]);
  }, 120_000);
});
