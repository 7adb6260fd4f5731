import fs from 'node:fs';
import { Readable } from 'node:stream';
import { normaliseCollegeName, type College } from '@ct/contracts';
import { governmentCollege, governmentData, recordFromCsv, type GovernmentData } from '@ct/providers';
import type { Db } from '@ct/store';
import { parse } from 'csv-parse';
import { CollegeRepository, disambiguatedName } from './repository.ts';

export interface ImportProgress {
  phase: 'reading' | 'writing';
  /** reading: bytes read; writing: institutions written */
  done: number;
  /** reading: total bytes when known; writing: institutions to write */
  total: number | null;
}

export interface ImportSummary {
  /** Rows in the file */
  rows: number;
  /** Rows that were an institution (had a UNITID and a name) */
  institutions: number;
  inserted: number;
  updated: number;
  /** Institutions not stored (their name and place were taken by another in the same file) */
  skipped: number;
  /** Institutions stored as "Name (City, ST)" because another has the same official name */
  disambiguated: number;
  ms: number;
}

/** Thrown for a source that cannot be read as the official institution CSV; the message is for the operator. */
export class ImportSourceError extends Error {}

const REQUIRED_COLUMNS = ['UNITID', 'INSTNM'];

async function open(source: string): Promise<{ stream: Readable; size: number | null }> {
  if (/^https?:\/\//i.test(source)) {
    let res: Response;
    try {
      res = await fetch(source);
    } catch (err) {
      throw new ImportSourceError(
        `Could not download ${source}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!res.ok || !res.body)
      throw new ImportSourceError(`Downloading ${source} failed (HTTP ${res.status}).`);
    if (/zip/i.test(res.headers.get('content-type') ?? '') || /\.zip$/i.test(new URL(source).pathname)) {
      throw new ImportSourceError(
        'That is a zip archive: unpack Most-Recent-Cohorts-Institution.csv from it first.',
      );
    }
    const len = Number(res.headers.get('content-length'));
    return {
      stream: Readable.fromWeb(res.body as never),
      size: Number.isFinite(len) && len > 0 ? len : null,
    };
  }
  if (!fs.existsSync(source)) throw new ImportSourceError(`No such file: ${source}`);
  return { stream: fs.createReadStream(source), size: fs.statSync(source).size };
}

/**
 * Reads the official College Scorecard institution CSV (Most-Recent-Cohorts-Institution.csv columns) from
 * a file or URL and upserts every institution's government data, in batched transactions. Colleges already
 * cached keep what was gathered from their pages; only demographics and finance are refreshed.
 */
export async function importScorecard(
  source: string,
  db: Db,
  opts: { batchSize?: number; onProgress?: (p: ImportProgress) => void } = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const { stream, size } = await open(source);
  let read = 0;
  stream.on('data', (chunk: Buffer | string) => {
    read += chunk.length;
    opts.onProgress?.({ phase: 'reading', done: read, total: size });
  });
  const parser = stream.pipe(
    parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }),
  );
  const schools: GovernmentData[] = [];
  let rows = 0;
  try {
    for await (const row of parser as AsyncIterable<Record<string, string>>) {
      if (rows === 0) {
        const missing = REQUIRED_COLUMNS.filter((c) => !(c in row));
        if (missing.length) {
          throw new ImportSourceError(
            `This is not the College Scorecard institution CSV: no ${missing.join(', ')} column.`,
          );
        }
      }
      rows++;
      const school = governmentData(recordFromCsv(row));
      if (school) schools.push(school);
    }
  } catch (err) {
    stream.destroy();
    if (err instanceof ImportSourceError) throw err;
    throw new ImportSourceError(
      `The file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}`,
    );
  }

  // Several institutions share some official names ("Columbia College"): each is stored with its place.
  const count = new Map<string, number>();
  for (const s of schools)
    count.set(normaliseCollegeName(s.name), (count.get(normaliseCollegeName(s.name)) ?? 0) + 1);
  const gatheredAt = new Date().toISOString();
  let disambiguated = 0;
  const docs: College[] = schools.map((s) => {
    const doc = governmentCollege(s, gatheredAt);
    if ((count.get(normaliseCollegeName(s.name)) ?? 0) < 2) return doc;
    disambiguated++;
    return { ...doc, name: disambiguatedName(doc), aliases: [doc.name, ...doc.aliases] };
  });

  const repo = new CollegeRepository(db);
  const batchSize = opts.batchSize ?? 500;
  let inserted = 0;
  let updated = 0;
  let skipped = 0;
  for (let i = 0; i < docs.length; i += batchSize) {
    const batch = docs.slice(i, i + batchSize);
    const r = await repo.upsertColleges(batch, { mode: 'government' });
    inserted += r.inserted;
    updated += r.updated;
    skipped += r.rows.filter((x) => x === null).length;
    opts.onProgress?.({ phase: 'writing', done: Math.min(i + batchSize, docs.length), total: docs.length });
  }
  return {
    rows,
    institutions: docs.length,
    inserted,
    updated,
    skipped,
    disambiguated,
    ms: Math.round(performance.now() - started),
  };
}
