import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * The College Scorecard snapshot shipped in the repository (built by scripts/data/build-snapshot.ts):
 * every institution's values for the Scorecard columns the app shows, as a gzipped JSON table.
 */
export const SNAPSHOT_FILE = fileURLToPath(new URL('../data/scorecard-snapshot.json.gz', import.meta.url));

export const SNAPSHOT_FORMAT = 'college-ready.scorecard-snapshot/1';

/** Columns from one file of one vintage, and the year their values describe. */
export interface SnapshotGroup {
  /** What the columns are, in words */
  label: string;
  /** Official Scorecard variable names (columns of the CSV files) */
  columns: string[];
  /** The year (or release) the values describe, as the input states it: "2021-22", "2025-01-16 release" */
  dataYear: string;
  /** Release date (YYYY-MM-DD) of the file the values come from, when known */
  released: string | null;
  /** Where the values were taken from */
  origin: string;
}

export interface SnapshotFile {
  format: typeof SNAPSHOT_FORMAT;
  /** Content hash: a snapshot with other data has another version (and is loaded again) */
  version: string;
  source: {
    title: string;
    url: string;
    /** The file the snapshot was built from, and its sha256 */
    input: string;
    inputSha256: string;
  };
  /** Licence notice of the data */
  notice: string;
  groups: SnapshotGroup[];
  columns: string[];
  /** One row per institution, values in `columns` order; null where the Scorecard publishes nothing */
  rows: Array<Array<string | number | null>>;
}

/** Reads and checks a snapshot file. Throws with a readable message when it is not one. */
export function readSnapshotFile(file = SNAPSHOT_FILE): SnapshotFile {
  const data = JSON.parse(gunzipSync(fs.readFileSync(file)).toString('utf8')) as Partial<SnapshotFile>;
  if (data.format !== SNAPSHOT_FORMAT || !Array.isArray(data.columns) || !Array.isArray(data.rows)) {
    throw new Error(`${file} is not a College Scorecard snapshot (${SNAPSHOT_FORMAT})`);
  }
  return data as SnapshotFile;
}

/** The snapshot's rows as records by column name (what `recordFromCsv` reads). */
export function* snapshotRecords(s: SnapshotFile): Generator<Record<string, string | undefined>> {
  for (const row of s.rows) {
    const rec: Record<string, string | undefined> = {};
    s.columns.forEach((c, i) => {
      const v = row[i];
      if (v !== null && v !== undefined) rec[c] = String(v);
    });
    yield rec;
  }
}
