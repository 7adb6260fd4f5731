// `npm run data:snapshot -- [<path-or-url>] [--out <file>] [--released YYYY-MM-DD] [--data-year <text>]`
//
// Builds the College Scorecard snapshot the product ships (services/colleges/data/scorecard-snapshot.json.gz):
// every institution of the input, only the Scorecard columns the app shows (packages/providers
// scorecard-fields.ts), numbers as numbers, gzipped JSON. The input is the official
// Most-Recent-Cohorts-Institution file (zip or CSV, path or URL) or, by default, the demo CSV in
// ../shared/data. Only derived values are written: the raw file is never copied.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { SCORECARD_FIELDS, num } from '@ct/providers';
import { csvRows, openScorecardSource } from '@ct/colleges/scorecard-source';
import {
  readYearFile,
  YEAR_FILE_ADMISSION_COLUMNS,
  YEAR_FILE_COLUMNS,
  YEAR_FILE_DATA_YEAR,
  YEAR_FILE_OUTCOME_COLUMNS,
} from './year-file.ts';
import {
  SNAPSHOT_FILE,
  SNAPSHOT_FORMAT,
  type SnapshotFile,
  type SnapshotGroup,
} from '@ct/colleges/snapshot-file';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEMO_CSV = path.resolve(ROOT, '../shared/data/scorecard_institutions_demo.csv');

/** Columns kept as text; every other column is a number (empty, NULL and PrivacySuppressed cells are null). */
const TEXT = new Set(['INSTNM', 'ALIAS', 'CITY', 'STABBR', 'INSTURL', 'NPCURL']);

export const NOTICE =
  'College Scorecard data of the U.S. Department of Education: a work of the U.S. federal government, ' +
  'in the public domain in the United States (17 U.S.C. 105). Source: https://collegescorecard.ed.gov/data/. ' +
  'This file holds derived values only (a column subset, numbers parsed); no value was estimated or changed.';

/**
 * The vintages of the demo CSV's columns, as shared/data/README.md states them: the 2021-22 year file of
 * the 2025-01-16 release, with the website, the net price calculator link and the earnings joined from
 * other files.
 */
function demoGroups(columns: string[]): SnapshotGroup[] {
  const joined = new Set(['INSTURL', 'NPCURL', 'MD_EARN_WNE_P10', ...YEAR_FILE_COLUMNS]);
  const groups: SnapshotGroup[] = [
    {
      label: 'Institution, enrollment, admissions, student body, cost, net price and completion',
      columns: columns.filter((c) => !joined.has(c)),
      dataYear: '2021-22',
      released: '2025-01-16',
      origin:
        'College Scorecard year file MERGED2021_22_PP (2025-01-16 release), via scorecard_institutions_demo.csv',
    },
    {
      label: 'Website',
      columns: ['INSTURL'],
      dataYear: '2025-01-16 release',
      released: '2025-01-16',
      origin: 'College Scorecard school table of the 2025-01-16 release, via scorecard_institutions_demo.csv',
    },
    {
      label: 'Net price calculator link',
      columns: ['NPCURL'],
      dataYear: 'about the 2022 release',
      released: null,
      origin:
        'A Most-Recent-Cohorts-Institution file committed on 2022-06-19 (about the 2022 release), via scorecard_institutions_demo.csv',
    },
    {
      label: 'Median earnings 10 years after entry',
      columns: ['MD_EARN_WNE_P10'],
      dataYear: '2020-21',
      released: '2025-01-16',
      origin:
        'College Scorecard 2020-21 year file of the 2025-01-16 release, via scorecard_institutions_demo.csv',
    },
    {
      label: 'Test-score requirement and open admissions policy',
      columns: [...YEAR_FILE_ADMISSION_COLUMNS],
      dataYear: YEAR_FILE_DATA_YEAR,
      released: '2025-01-16',
      origin:
        'College Scorecard year file MERGED2021_22_PP (2025-01-16 release), via scorecard_merged_2021-22.parquet',
    },
    {
      label: 'Completion by Pell Grant, loan and first-generation status',
      columns: [...YEAR_FILE_OUTCOME_COLUMNS],
      dataYear: YEAR_FILE_DATA_YEAR,
      released: '2025-01-16',
      origin:
        'College Scorecard year file MERGED2021_22_PP (2025-01-16 release), via scorecard_merged_2021-22.parquet',
    },
  ];
  return groups
    .map((g) => ({ ...g, columns: g.columns.filter((c) => columns.includes(c)) }))
    .filter((g) => g.columns.length);
}

/** One group for a single official file: its release date from the name (or --released). */
function officialGroups(
  columns: string[],
  name: string,
  released: string | null,
  dataYear: string | null,
): SnapshotGroup[] {
  const mrc = /Most-Recent-Cohorts/i.test(name);
  return [
    {
      label: 'All columns',
      columns,
      dataYear:
        dataYear ??
        (mrc
          ? `most recent cohorts${released ? ` of the ${released} release` : ''}`
          : 'not stated by the input'),
      released,
      origin: `${name}${mrc ? ' (College Scorecard Most-Recent-Cohorts institution file)' : ''}`,
    },
  ];
}

export interface BuildOptions {
  input?: string;
  out?: string;
  released?: string | null;
  dataYear?: string | null;
  onProgress?: (bytes: number, total: number | null) => void;
}

export interface BuildSummary {
  out: string;
  institutions: number;
  columns: number;
  bytes: number;
  version: string;
  inputSha256: string;
  groups: SnapshotGroup[];
}

/** Reads the input, keeps the app's columns for every institution, and writes the gzipped snapshot. */
export async function buildSnapshot(opts: BuildOptions = {}): Promise<BuildSummary> {
  const input = opts.input ?? DEMO_CSV;
  const out = opts.out ?? SNAPSHOT_FILE;
  const src = await openScorecardSource(input, (p) => opts.onProgress?.(p.bytes, p.total));
  const wanted = [...new Set(Object.values(SCORECARD_FIELDS).map((f) => f.variable))];
  let columns: string[] | null = null;
  const rows: SnapshotFile['rows'] = [];
  const parser = csvRows(src);
  // The demo CSV lacks the test-score requirement (ADMCON7) and the open admissions policy (OPENADMP): they
  // are joined by UNITID from the year file the CSV was cut from (an official Most-Recent-Cohorts file
  // carries them itself).
  const demo = path.basename(input) === path.basename(DEMO_CSV);
  const yearFile = demo ? await readYearFile() : null;
  for await (const parsed of parser as AsyncIterable<Record<string, string>>) {
    const extra = yearFile?.get(Number(parsed.UNITID));
    const row: Record<string, string> = yearFile
      ? { ...Object.fromEntries(YEAR_FILE_COLUMNS.map((c) => [c, ''])), ...extra, ...parsed }
      : parsed;
    if (!columns) {
      if (!('UNITID' in row) || !('INSTNM' in row)) {
        throw new Error(`${input} is not the College Scorecard institution CSV (no UNITID/INSTNM column)`);
      }
      columns = wanted.filter((c) => c in row);
    }
    const id = num(row.UNITID);
    if (id === null || !row.INSTNM?.trim()) continue;
    rows.push(
      columns.map((c) => {
        const v = row[c];
        if (TEXT.has(c)) return v && v !== 'NULL' ? v : null;
        return num(v);
      }),
    );
  }
  if (!columns || !rows.length) throw new Error(`${input} holds no institution`);
  rows.sort((a, b) => (a[0] as number) - (b[0] as number));

  const released = opts.released ?? src.release;
  const groups = demo
    ? demoGroups(columns)
    : officialGroups(columns, src.name, released, opts.dataYear ?? null);
  const inputSha256 = src.sha256();
  const content = { groups, columns, rows };
  const version = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 16);
  const file: SnapshotFile = {
    format: SNAPSHOT_FORMAT,
    version,
    source: {
      title: 'College Scorecard, U.S. Department of Education',
      url: 'https://collegescorecard.ed.gov/data/',
      input: path.basename(/^https?:\/\//i.test(input) ? new URL(input).pathname : input),
      inputSha256,
    },
    notice: NOTICE,
    ...content,
  };
  const gz = gzipSync(Buffer.from(JSON.stringify(file)), { level: 9 });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, gz);
  return {
    out,
    institutions: rows.length,
    columns: columns.length,
    bytes: gz.length,
    version,
    inputSha256,
    groups,
  };
}

function arg(argv: string[], name: string): string | null {
  const i = argv.indexOf(name);
  return i >= 0 ? (argv[i + 1] ?? null) : null;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      'Usage: npm run data:snapshot -- [<path-or-url of Most-Recent-Cohorts-Institution (zip or csv)>]\n' +
        '         [--out <file>] [--released YYYY-MM-DD] [--data-year <text>]\n' +
        `Default input: ${DEMO_CSV}\nDefault output: ${SNAPSHOT_FILE}\n`,
    );
    return 0;
  }
  const flags = new Set(['--out', '--released', '--data-year']);
  const input = argv.find((a, i) => !a.startsWith('--') && !flags.has(argv[i - 1] ?? ''));
  const s = await buildSnapshot({
    ...(input ? { input } : {}),
    ...(arg(argv, '--out') ? { out: arg(argv, '--out')! } : {}),
    released: arg(argv, '--released'),
    dataYear: arg(argv, '--data-year'),
  });
  process.stdout.write(
    `Wrote ${path.relative(process.cwd(), s.out)}: ${s.institutions.toLocaleString('en-US')} institutions, ` +
      `${s.columns} columns, ${(s.bytes / 1024).toFixed(0)} KiB, version ${s.version}\n` +
      `Input sha256 ${s.inputSha256}\n` +
      s.groups.map((g) => `  ${g.label}: ${g.dataYear} (${g.columns.length} columns)\n`).join(''),
  );
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  });
}
