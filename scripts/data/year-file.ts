// The official College Scorecard year file in ../shared/data (MERGED2021_22_PP as Parquet): the columns the
// demo CSV leaves out (ADMCON7, the test-score requirement; OPENADMP, the open admissions policy; the
// completion rates of Pell Grant recipients, of students with neither a Pell Grant nor a subsidized loan,
// pooled and of first-generation students), read by UNITID for the data scripts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const YEAR_FILE = path.resolve(ROOT, '../shared/data/scorecard_merged_2021-22.parquet');
/** The year the year file's values describe. */
export const YEAR_FILE_DATA_YEAR = '2021-22';

/** The test-score requirement and the open admissions policy. */
export const YEAR_FILE_ADMISSION_COLUMNS = ['ADMCON7', 'OPENADMP'] as const;

/**
 * Completion by Pell Grant, loan and first-generation status (issue 48). In the 2021-22 year file the pooled
 * rate (C150_4_POOLED) and every FIRSTGEN_* column are empty for every institution: they are carried all the
 * same, so a file that fills them (a Most-Recent-Cohorts file) is shown without a code change, and so the
 * product can say the year file has none rather than guess.
 */
export const YEAR_FILE_OUTCOME_COLUMNS = [
  'C150_4_PELL',
  'C150_4_NOLOANNOPELL',
  'C150_4_POOLED',
  'FIRSTGEN_COMP_ORIG_YR4_RT',
  'C150_L4_PELL',
  'C150_L4_NOLOANNOPELL',
] as const;

/** Columns taken from the year file because the demo CSV does not carry them. */
export const YEAR_FILE_COLUMNS = [...YEAR_FILE_ADMISSION_COLUMNS, ...YEAR_FILE_OUTCOME_COLUMNS] as const;

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
