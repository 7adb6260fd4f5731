// The official College Scorecard year file in ../shared/data (MERGED2021_22_PP as Parquet): the columns the
// demo CSV leaves out (ADMCON7, the test-score requirement; OPENADMP, the open admissions policy), read by
// UNITID for the data scripts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const YEAR_FILE = path.resolve(ROOT, '../shared/data/scorecard_merged_2021-22.parquet');
/** The year the year file's values describe. */
export const YEAR_FILE_DATA_YEAR = '2021-22';

/** Columns taken from the year file because the demo CSV does not carry them. */
export const YEAR_FILE_COLUMNS = ['ADMCON7', 'OPENADMP'] as const;

/**
 * `columns` of every institution of the year file, by UNITID, as CSV cells ("" where the file has no
 * value), so they join the demo CSV's rows unchanged. Null when the file is not there.
 */
export async function readYearFile(
  columns: readonly string[] = YEAR_FILE_COLUMNS,
  file = YEAR_FILE,
): Promise<Map<number, Record<string, string>> | null> {
  if (!fs.existsSync(file)) return null;
  const buffer = await asyncBufferFromFile(file);
  const rows = (await parquetReadObjects({
    file: buffer,
    columns: ['UNITID', ...columns],
    compressors,
  })) as Array<Record<string, unknown>>;
  const out = new Map<number, Record<string, string>>();
  for (const r of rows) {
    const cells: Record<string, string> = {};
    for (const c of columns) {
      const v = r[c];
      cells[c] = v === null || v === undefined ? '' : String(v);
    }
    out.set(Number(r.UNITID), cells);
  }
  return out;
}
