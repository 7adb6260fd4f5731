import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  freshDatabase,
  SCORECARD_CSV,
  startScorecardDownloadsFake,
  type ScorecardDownloadsFake,
  type TestDatabase,
} from '@ct/testkit';
import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import collegesService from './app.ts';
import { CollegeRepository } from './repositories/colleges.ts';
import { importScorecard, type ImportProgress } from './scorecard-import.ts';
import { latestScorecardFile } from './scorecard-source.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

// The first 400 institutions of the test fixture's rows of the official CSV, zipped as the Department of
// Education publishes it.
const csv = fs.readFileSync(SCORECARD_CSV, 'utf8').split('\n').slice(0, 401).join('\n');
const zip = zipSync({ 'Most-Recent-Cohorts-Institution.csv': new TextEncoder().encode(csv) }, { level: 6 });
// Stored without compression (as some tools do): every chunk of it arrives on its own.
const stored = zipSync(
  { 'Most-Recent-Cohorts-Institution.csv': new TextEncoder().encode(csv) },
  { level: 0 },
);
const older = zipSync({
  'Most-Recent-Cohorts-Institution.csv': new TextEncoder().encode(csv.split('\n').slice(0, 3).join('\n')),
});
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const NEWEST = 'Most-Recent-Cohorts-Institution_06102026.zip';
const migrate = (db: Db) => migrateModule(db, collegesService as unknown as ServiceModule);

let site: ScorecardDownloadsFake;
beforeAll(async () => {
  site = await startScorecardDownloadsFake({
    files: {
      'Most-Recent-Cohorts-Institution_03232026.zip': older,
      [NEWEST]: zip,
      'stored.zip': stored,
      'Most-Recent-Cohorts-Field-of-Study_06102026.zip': older,
    },
  });
});
afterAll(async () => {
  await site?.close();
});

/** Runs the CLI to its end, collecting its output (asynchronously: the fake site answers in this process). */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'services/colleges/src/cli/import-scorecard.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run import:scorecard -- --latest', () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await freshDatabase('import_latest');
  });
  afterAll(async () => {
    await target?.drop();
  });

  it('downloads the newest institution file from the data page, streamed, with a checksum', async () => {
    const r = await cli(['--latest'], {
      DATABASE_URL: target.url,
      SCORECARD_DATA_PAGE_URL: site.dataPageUrl,
      SCORECARD_DOWNLOAD_URL: site.downloadUrl,
    });
    expect(r.stderr).toContain(`Newest file: ${NEWEST} (released 2026-06-10)`);
    expect(r.status).toBe(0);
    expect(site.requests).toContain(`/downloads/${NEWEST}`);
    expect(site.requests.filter((p) => p.includes('03232026'))).toEqual([]);
    // Progress while reading (a line per 10 % off a terminal), then the checksum of the bytes downloaded.
    expect(r.stderr).toMatch(/100% {2}Reading {2}[\d.]+\/[\d.]+ MB/);
    expect(r.stderr).toContain('100%  Writing  400/400 colleges');
    expect(r.stdout).toMatch(/^Imported 400 institutions from 400 rows/);
    expect(r.stdout).toContain(`(zip), sha256 ${sha256(zip)}`);

    const db = await openDb({ url: target.url });
    try {
      const repo = new CollegeRepository(db);
      expect(await repo.countColleges()).toBe(400);
      const aamu = (await repo.findCollege('Alabama A & M University'))!.college;
      expect(aamu.sources.demographics!.title).toBe(
        'College Scorecard, U.S. Department of Education, 2026-06-10 release',
      );
      const loads = await db.query<{ kind: string; sha256: string; released: string }>(
        `SELECT kind, sha256, to_char(released, 'YYYY-MM-DD') AS released FROM colleges.snapshot_load`,
      );
      expect(loads.rows).toEqual([{ kind: 'import', sha256: sha256(zip), released: '2026-06-10' }]);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('says what to do when the data page links no institution file', async () => {
    const bare = await startScorecardDownloadsFake({ files: {}, linked: [] });
    try {
      const r = await cli(['--latest'], {
        DATABASE_URL: target.url,
        SCORECARD_DATA_PAGE_URL: bare.dataPageUrl,
        SCORECARD_DOWNLOAD_URL: bare.downloadUrl,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('links no Most-Recent-Cohorts institution file');
      expect(r.stderr).toContain('npm run import:scorecard -- <path-or-url>');
    } finally {
      await bare.close();
    }
  }, 60_000);
});

describe('importing from a zip or CSV, by path or URL', () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await freshDatabase('import_zip');
    const db = await openDb({ url: target.url });
    await migrate(db);
    await db.close();
  });
  afterAll(async () => {
    await target?.drop();
  });

  it('finds the newest file by its date, whatever the order on the page', async () => {
    const f = await latestScorecardFile({ dataPageUrl: site.dataPageUrl, downloadUrl: site.downloadUrl });
    expect(f).toEqual({ fileName: NEWEST, release: '2026-06-10', url: `${site.downloadUrl}${NEWEST}` });
  });

  it('unzips a URL as it arrives, and reads a zip or CSV file from disk', async () => {
    const db = await openDb({ url: target.url });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-zip-'));
    try {
      const progress: ImportProgress[] = [];
      const s = await importScorecard(`${site.downloadUrl}${NEWEST}`, db, { grid: null });
      expect(s).toMatchObject({
        institutions: 400,
        inserted: 400,
        zipped: true,
        sha256: sha256(zip),
        bytes: zip.length,
      });
      // Read in several chunks, each counted as it came (never the whole file at once).
      const t = await importScorecard(`${site.downloadUrl}stored.zip`, db, {
        onProgress: (p) => progress.push(p),
        grid: null,
      });
      expect(t).toMatchObject({ institutions: 400, updated: 400, zipped: true, sha256: sha256(stored) });
      const reads = progress.filter((p) => p.phase === 'reading');
      expect(reads.length).toBeGreaterThan(2);
      expect(reads[0]!.done).toBeLessThan(stored.length);
      expect(reads.at(-1)).toEqual({ phase: 'reading', done: stored.length, total: stored.length });

      const file = path.join(dir, NEWEST);
      fs.writeFileSync(file, zip);
      expect(await importScorecard(file, db, { grid: null })).toMatchObject({
        institutions: 400,
        updated: 400,
        zipped: true,
      });
      const plain = path.join(dir, 'Most-Recent-Cohorts-Institution.csv');
      fs.writeFileSync(plain, csv);
      const c = await importScorecard(plain, db, { grid: null });
      expect(c).toMatchObject({ institutions: 400, zipped: false, sha256: sha256(Buffer.from(csv)) });
      expect(await new CollegeRepository(db).countColleges()).toBe(400);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a download cut short, and stores nothing from it', async () => {
    const cut = await startScorecardDownloadsFake({
      files: { [NEWEST]: zip },
      truncate: Math.floor(zip.length / 2),
    });
    const fresh = await freshDatabase('import_cut');
    const db = await openDb({ url: fresh.url });
    try {
      await migrate(db);
      await expect(importScorecard(`${cut.downloadUrl}${NEWEST}`, db, { grid: null })).rejects.toThrow(
        /Reading .* failed after|ended before its CSV did|could not be unpacked/,
      );
      expect(await new CollegeRepository(db).countColleges()).toBe(0);
      await expect(importScorecard(`${cut.downloadUrl}missing.zip`, db)).rejects.toThrow('(HTTP 404)');
    } finally {
      await db.close();
      await fresh.drop();
      await cut.close();
    }
  }, 60_000);
});
