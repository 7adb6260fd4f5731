// `npm run import:scorecard -- <path-or-url>`: preloads the college cache with every institution of the
// official College Scorecard institution CSV, so autocomplete works on day one (college facts are
// gathered the first time a student searches for a college).
import { BaseConfig, migrateModule, parseConfig, type ServiceModule } from '@ct/service-kit';
import { DataDirInUseError, openDb } from '@ct/store';
import collegesService from '../app.ts';
import { ImportSourceError, importScorecard, type ImportProgress } from '../scorecard-import.ts';

const USAGE = `Usage: npm run import:scorecard -- <path-or-url of Most-Recent-Cohorts-Institution.csv>

Writes to DATABASE_URL, or to the embedded PGlite folder DATA_DIR (default .data/pglite) when no
DATABASE_URL is set; stop the app first in that case (one process owns the folder).`;

const fmt = (n: number) => n.toLocaleString('en-US');

/** A one-line progress bar on a terminal; a line per 10 % otherwise (logs, CI). */
function progressPrinter(out: NodeJS.WriteStream) {
  let lastStep = -1;
  let lastDraw = 0;
  const started = Date.now();
  return (p: ImportProgress) => {
    const ratio = p.total ? Math.min(1, p.done / p.total) : 0;
    const now = Date.now();
    const label =
      p.phase === 'reading'
        ? `Reading  ${p.total ? `${(p.done / 1e6).toFixed(1)}/${(p.total / 1e6).toFixed(1)} MB` : `${(p.done / 1e6).toFixed(1)} MB`}`
        : `Writing  ${fmt(p.done)}/${fmt(p.total ?? 0)} colleges  ${fmt(Math.round(p.done / Math.max(0.001, (now - started) / 1000)))}/s`;
    if (out.isTTY) {
      if (now - lastDraw < 80 && ratio < 1) return;
      lastDraw = now;
      const width = 30;
      const filled = Math.round(ratio * width);
      out.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}%  ${label}\x1b[K`,
      );
      if (ratio >= 1 && p.phase === 'writing') out.write('\n');
      return;
    }
    const step = Math.floor(ratio * 10);
    if (p.phase === 'writing' && step !== lastStep) {
      lastStep = step;
      out.write(`${Math.round(ratio * 100)}%  ${label}\n`);
    }
  };
}

async function main(argv: string[]): Promise<number> {
  const source = argv.find((a) => !a.startsWith('-'));
  if (!source || argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(`${USAGE}\n`);
    return source ? 0 : 2;
  }
  let config;
  try {
    config = parseConfig(BaseConfig, process.env);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
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
    const s = await importScorecard(source, db, { onProgress: progressPrinter(process.stderr) });
    process.stdout.write(
      `Imported ${fmt(s.institutions)} institutions from ${fmt(s.rows)} rows in ${(s.ms / 1000).toFixed(1)} s: ` +
        `${fmt(s.inserted)} new, ${fmt(s.updated)} updated, ${fmt(s.skipped)} skipped` +
        `${s.disambiguated ? `; ${fmt(s.disambiguated)} sharing an official name are stored as "Name (City, ST)"` : ''}.\n`,
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
