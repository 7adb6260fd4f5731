// `npm run import:scorecard -- --latest | <path-or-url>`: loads the official College Scorecard institution
// file (Most-Recent-Cohorts-Institution, the zip the Department of Education publishes or its CSV) into
// the college cache. `--latest` finds the newest file on the Scorecard's data page and downloads it,
// streamed; a path or URL works too. Colleges whose facts were gathered keep them.
import { BaseConfig, migrateModule, parseConfig, type ServiceModule } from '@ct/service-kit';
import { DataDirInUseError, openDb } from '@ct/store';
import collegesService from '../app.ts';
import { ImportSourceError, importScorecard, type ImportProgress } from '../scorecard-import.ts';
import {
  DEFAULT_SCORECARD_DATA_PAGE_URL,
  DEFAULT_SCORECARD_DOWNLOAD_URL,
  latestScorecardFile,
} from '../scorecard-source.ts';

const USAGE = `Usage: npm run import:scorecard -- --latest
       npm run import:scorecard -- <path-or-url of Most-Recent-Cohorts-Institution (.zip or .csv)>

--latest finds the newest Most-Recent-Cohorts institution file on ${DEFAULT_SCORECARD_DATA_PAGE_URL}
(SCORECARD_DATA_PAGE_URL) and downloads it from ${DEFAULT_SCORECARD_DOWNLOAD_URL}
(SCORECARD_DOWNLOAD_URL), streamed: nothing is kept on disk.

Writes to DATABASE_URL, or to the embedded PGlite folder DATA_DIR (default .data/pglite) when no
DATABASE_URL is set; stop the app first in that case (one process owns the folder).`;

const fmt = (n: number) => n.toLocaleString('en-US');
const mb = (n: number) => (n / 1e6).toFixed(1);

/** A one-line progress bar on a terminal; a line per 10 % of each phase otherwise (logs, CI). */
function progressPrinter(out: NodeJS.WritableStream & { isTTY?: boolean }) {
  const last = { reading: -1, writing: -1 };
  let lastDraw = 0;
  const started = Date.now();
  return (p: ImportProgress) => {
    const ratio = p.total ? Math.min(1, p.done / p.total) : null;
    const now = Date.now();
    const label =
      p.phase === 'reading'
        ? `Reading  ${p.total ? `${mb(p.done)}/${mb(p.total)} MB` : `${mb(p.done)} MB`}`
        : `Writing  ${fmt(p.done)}/${fmt(p.total ?? 0)} colleges  ${fmt(Math.round(p.done / Math.max(0.001, (now - started) / 1000)))}/s`;
    if (out.isTTY) {
      const done = ratio !== null && ratio >= 1;
      if (now - lastDraw < 80 && !done) return;
      lastDraw = now;
      const width = 30;
      const filled = Math.round((ratio ?? 0) * width);
      const pct = ratio === null ? '   ' : String(Math.round(ratio * 100)).padStart(3);
      out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct}%  ${label}\x1b[K`);
      if (done) out.write('\n');
      return;
    }
    // Without a known size, a line per 5 MB read.
    const step = ratio === null ? Math.floor(p.done / 5e6) : Math.floor(ratio * 10);
    if (step !== last[p.phase]) {
      last[p.phase] = step;
      out.write(`${ratio === null ? '' : `${Math.round(ratio * 100)}%  `}${label}\n`);
    }
  };
}

async function main(argv: string[]): Promise<number> {
  const latest = argv.includes('--latest');
  let source = argv.find((a) => !a.startsWith('-'));
  if ((!source && !latest) || argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(`${USAGE}\n`);
    return source || latest ? 0 : 2;
  }
  let config;
  try {
    config = parseConfig(BaseConfig, process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  if (latest && !source) {
    try {
      const file = await latestScorecardFile({
        dataPageUrl: process.env.SCORECARD_DATA_PAGE_URL || undefined,
        downloadUrl: process.env.SCORECARD_DOWNLOAD_URL || undefined,
      });
      process.stderr.write(`Newest file: ${file.fileName} (released ${file.release})\n`);
      source = file.url;
    } catch (err) {
      if (err instanceof ImportSourceError) {
        process.stderr.write(`${err.message}\n`);
        return 1;
      }
      throw err;
    }
  }
  let db;
  try {
    db = await openDb({
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolMax: 4,
      applicationName: 'import-scorecard',
    });
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  try {
    await migrateModule(db, collegesService as unknown as ServiceModule);
    const where = config.DATABASE_URL
      ? 'the Postgres database in DATABASE_URL'
      : `the embedded store in ${config.DATA_DIR}`;
    process.stderr.write(`Importing ${source} into ${where}\n`);
    const s = await importScorecard(source!, db, { onProgress: progressPrinter(process.stderr) });
    process.stdout.write(
      `Imported ${fmt(s.institutions)} institutions from ${fmt(s.rows)} rows in ${(s.ms / 1000).toFixed(1)} s: ` +
        `${fmt(s.inserted)} new, ${fmt(s.updated)} updated, ${fmt(s.skipped)} skipped` +
        `${s.disambiguated ? `; ${fmt(s.disambiguated)} sharing an official name are stored as "Name (City, ST)"` : ''}.\n` +
        `Read ${mb(s.bytes)} MB${s.zipped ? ' (zip)' : ''}, sha256 ${s.sha256}\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof ImportSourceError) {
      process.stderr.write(`\n${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
