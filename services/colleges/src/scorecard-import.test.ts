import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCollege, freshDatabase, SCORECARD_CSV, type TestDatabase } from '@ct/testkit';
import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import collegesService from './app.ts';
import { CollegeRepository } from './repositories/colleges.ts';
import { importScorecard, type ImportProgress } from './scorecard-import.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let database: TestDatabase;
let db: Db;
let repo: CollegeRepository;

beforeAll(async () => {
  database = await freshDatabase('import');
  db = await openDb({ url: database.url });
  await migrateModule(db, collegesService as unknown as ServiceModule);
  repo = new CollegeRepository(db);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

// The test fixture: 500 rows of the official institution CSV (tests/fixtures, `npm run data:fixtures`),
// among them four Columbia Colleges, two Anderson Universities and two Union Colleges.
describe('bulk import of the College Scorecard institution CSV', () => {
  it('stores every institution of the 500-row file, with progress', async () => {
    // A college a student already gathered, with facts from its pages, before the import runs
    await repo.upsertCollege(
      buildCollege({
        name: 'Harvard University',
        scorecardId: 166027,
        info: { tips: ['Apply by November 1 for Restrictive Early Action.'] },
      }),
    );
    const progress: ImportProgress[] = [];
    const s = await importScorecard(SCORECARD_CSV, db, { onProgress: (p) => progress.push(p) });
    expect(s).toMatchObject({
      rows: 500,
      institutions: 500,
      inserted: 499,
      updated: 1,
      skipped: 0,
      disambiguated: 11,
    });
    expect(await repo.countColleges()).toBe(500);
    expect(progress.some((p) => p.phase === 'reading')).toBe(true);
    expect(progress.at(-1)).toEqual({ phase: 'writing', done: 500, total: 500 });
  });

  it('maps the government data and leaves the college facts to the first search', async () => {
    const hit = (await repo.findCollege('The University of Texas at Austin'))!;
    expect(hit.factsGathered).toBe(false);
    expect(hit.college.demographics).toMatchObject({
      schoolCity: 'Austin',
      schoolState: 'TX',
      ownership: 'Public',
    });
    expect(hit.college.sources.demographics!.url).toBe('https://collegescorecard.ed.gov/school/?228778');
    // The Common App grid gives its plans (labelled with their cycle when it is last cycle's); the facts
    // only the college's pages give wait for the first search.
    expect(hit.college.info.deadlines.map((d) => d.type)).toContain('Regular Decision');
    expect(hit.college.missing.some((m) => m.startsWith('Deadlines ('))).toBe(false);
    expect(hit.college.missing).toContain(
      "Essay prompts (from the college's own pages, when an AI provider is configured)",
    );
    expect((await repo.findCollege('UT Austin'))!.college.name).toBe('The University of Texas at Austin');
  });

  it('refreshes the government data of a gathered college without losing its facts', async () => {
    const harvard = (await repo.findCollege('Harvard University'))!;
    expect(harvard.factsGathered).toBe(true);
    expect(harvard.college.info.tips).toEqual(['Apply by November 1 for Restrictive Early Action.']);
    expect(harvard.college.demographics.schoolCity).toBe('Cambridge');
    expect(harvard.college.demographics.finance.netPrice30001to48000).toBe(-273);
  });

  it('keeps institutions that share an official name apart by place, and finds them by that name', async () => {
    const names = await db.query<{ name: string }>(
      `SELECT name FROM colleges.college WHERE name LIKE 'Columbia College (%' ORDER BY name`,
    );
    expect(names.rows.map((r) => r.name).sort()).toEqual([
      'Columbia College (Columbia, MO)',
      'Columbia College (Columbia, SC)',
      'Columbia College (Sonora, CA)',
      'Columbia College (Vienna, VA)',
    ]);
    const plain = (await repo.findCollege('Columbia College'))!;
    expect(plain.college.name).toMatch(/^Columbia College \(/);
  });

  it('is idempotent: importing again changes no row count', async () => {
    const s = await importScorecard(SCORECARD_CSV, db);
    expect(s).toMatchObject({ inserted: 0, updated: 500, skipped: 0 });
    expect(await repo.countColleges()).toBe(500);
  });

  it('says clearly what is wrong with a file that is not the Scorecard CSV', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-import-'));
    const bad = path.join(dir, 'notes.csv');
    fs.writeFileSync(bad, 'title,content\nhello,world\n');
    await expect(importScorecard(bad, db)).rejects.toThrow(
      'This is not the College Scorecard institution CSV: no UNITID, INSTNM column.',
    );
    await expect(importScorecard(path.join(dir, 'missing.csv'), db)).rejects.toThrow('No such file');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('npm run import:scorecard', () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', 'services/colleges/src/cli/import-scorecard.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: 'silent', ...env },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );

  it('imports into the Postgres database of DATABASE_URL and prints a summary', async () => {
    const target = await freshDatabase('import_cli');
    try {
      const r = run([SCORECARD_CSV], { DATABASE_URL: target.url });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(
        /^Imported 500 institutions from 500 rows in [\d.]+ s: 500 new, 0 updated, 0 skipped; 11 sharing an official name/,
      );
      expect(r.stderr).toContain('100%');
    } finally {
      await target.drop();
    }
  }, 120_000);

  it('refuses with a clear message while another process owns the embedded data folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-pglite-'));
    const owner = await openDb({ dataDir: dir });
    try {
      const r = run([SCORECARD_CSV], { DATABASE_URL: '', DATA_DIR: dir });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`The data folder ${dir} is in use by process ${process.pid}.`);
    } finally {
      await owner.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('explains its usage without an argument', () => {
    const r = run([], {});
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage: npm run import:scorecard -- --latest');
    expect(r.stderr).toContain('npm run import:scorecard -- <path-or-url of Most-Recent-Cohorts-Institution');
  });
});
