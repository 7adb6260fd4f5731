// `npm run data:fixtures`
//
// Derives the small data files the tests use (tests/fixtures/) from the public files in ../shared/data, so
// that a fresh clone passes its tests with nothing beside it. Only this script (and the other data tools
// in scripts/data/) reads ../shared. What it writes:
//
// - scorecard-institutions.csv: a few hundred rows of the demo institution CSV, unchanged but for the
//   year file's ADMCON7 and OPENADMP appended (the demo CSV lacks them): every
//   institution a test names (by its official name or UNITID), every other institution sharing an official
//   name with one of those, and an even sample of the rest, in UNITID order.
// - scorecard-dictionary.csv: the four columns of the official data dictionary that map a CSV column to its
//   API field (variable, category, API name, type), for the CSV's columns and the product's field table.
// - cip-codes.csv: code, action and title of the CIP 2020 rows the majors tests need (the product's
//   majors, their families and series, an even sample, and rows deleted or moved); no definitions.
// - common-app-grid.json: grid entries the match test checks, facts only (the entries' notes are left out),
//   with the grid's provenance and licence notice.
// - essay-prompts.json: shaped like the published Common App / UC prompts file, with the same word limits
//   and source pages, but prompt texts written for the tests (the published texts are not copied).
//
// The fixture is deterministic: running the script again writes the same files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { SCORECARD_FIELDS } from '@ct/providers';
import { GRID_INPUT, GRID_OUTPUT, runMatch } from './match-common-app.ts';
import { readYearFile, YEAR_FILE_COLUMNS } from './year-file.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHARED = path.resolve(ROOT, '../shared/data');
export const FIXTURES = path.join(ROOT, 'tests/fixtures');

/** How many institutions the fixture holds at most (named ones first, then an even sample). */
const INSTITUTIONS = 500;
/** How many grid entries the match test gets. */
const GRID_ENTRIES = 120;

type Row = Record<string, string>;

/** RFC 4180 field. */
const csvField = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvLine = (values: string[]) => values.map(csvField).join(',');

/** Every test source of the repository: where the names the fixture must hold are found. */
function testSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!['node_modules', 'dist', 'fixtures', '.data'].includes(e.name) && !e.name.startsWith('.'))
          walk(p);
      } else if (
        /\.test\.tsx?$/.test(e.name) ||
        (p.includes(`${path.sep}tests${path.sep}`) && /\.ts$/.test(e.name))
      ) {
        out.push(fs.readFileSync(p, 'utf8'));
      }
    }
  };
  for (const dir of ['tests', 'services', 'packages', 'gateway', 'web/src']) walk(path.join(ROOT, dir));
  return out;
}

/** An even sample of `n` items of a list (the first one included), in the list's order. */
function evenSample<T>(list: T[], n: number): T[] {
  if (n <= 0) return [];
  if (n >= list.length) return list;
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor(i * step)]!);
}

function institutions(sources: string[], yearFile: Map<number, Record<string, string>>) {
  const file = path.join(SHARED, 'scorecard_institutions_demo.csv');
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split(/\r?\n/).filter((l) => l !== '');
  const header = lines[0]!;
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Row[];
  if (rows.length !== lines.length - 1)
    throw new Error('the institution CSV has a line break inside a field');
  const quoted = new Set<string>();
  for (const s of sources) for (const m of s.matchAll(/(['"`])([^'"`\n]{3,120})\1/g)) quoted.add(m[2]!);
  const numbers = new Set<string>();
  for (const s of sources) for (const m of s.matchAll(/\b\d{6}\b/g)) numbers.add(m[0]);
  const named = new Set<number>();
  rows.forEach((r, i) => {
    if (quoted.has(r.INSTNM!) || numbers.has(r.UNITID!)) named.add(i);
  });
  // Everything that shares an official name with a named institution (the tests count them).
  const names = new Set([...named].map((i) => rows[i]!.INSTNM));
  rows.forEach((r, i) => {
    if (names.has(r.INSTNM)) named.add(i);
  });
  const rest = rows.map((_, i) => i).filter((i) => !named.has(i));
  const chosen = [...named, ...evenSample(rest, INSTITUTIONS - named.size)].sort(
    (a, b) => Number(rows[a]!.UNITID) - Number(rows[b]!.UNITID),
  );
  // The year file's columns the demo CSV lacks (ADMCON7, OPENADMP) are appended, joined by UNITID.
  const joined = (i: number) => {
    const cells = yearFile.get(Number(rows[i]!.UNITID));
    return YEAR_FILE_COLUMNS.map((c) => csvField(cells?.[c] ?? '')).join(',');
  };
  const out =
    [`${header},${YEAR_FILE_COLUMNS.join(',')}`, ...chosen.map((i) => `${lines[i + 1]!},${joined(i)}`)].join(
      '\n',
    ) + '\n';
  fs.writeFileSync(path.join(FIXTURES, 'scorecard-institutions.csv'), out);
  return {
    columns: [...Object.keys(rows[0]!), ...YEAR_FILE_COLUMNS],
    count: chosen.length,
    named: named.size,
  };
}

function dictionary(columns: string[]) {
  const rows = parse(fs.readFileSync(path.join(SHARED, 'scorecard_data_dictionary.csv')), {
    columns: true,
    skip_empty_lines: true,
  }) as Row[];
  const wanted = new Set([...columns, ...Object.values(SCORECARD_FIELDS).map((f) => f.variable)]);
  const keep = ['variable_name', 'dev_category', 'developer_friendly_name', 'api_data_type'];
  const seen = new Set<string>();
  const out = [csvLine(keep)];
  for (const r of rows) {
    const v = r.variable_name ?? '';
    if (!wanted.has(v) || seen.has(v)) continue;
    seen.add(v);
    out.push(csvLine(keep.map((k) => r[k] ?? '')));
  }
  fs.writeFileSync(path.join(FIXTURES, 'scorecard-dictionary.csv'), out.join('\n') + '\n');
  return out.length - 1;
}

async function cipCodes() {
  const { MAJORS } = await import('../../services/colleges/src/majors/majors.ts');
  // The file has a few stray quotes inside quoted definitions.
  const rows = parse(fs.readFileSync(path.join(SHARED, 'cip2020_codes.csv')), {
    columns: true,
    skip_empty_lines: true,
    relax_quotes: true,
  }) as Row[];
  const current = rows.filter(
    (r) => /^\d\d\.\d{4}$/.test(r.CIPCode ?? '') && r.Action !== 'Deleted' && r.Action !== 'Moved to',
  );
  // The data README's count of current six-digit programs: the parse is right.
  if (current.length !== 2172) throw new Error(`read ${current.length} current CIP programs, not 2,172`);
  const majors = new Set(MAJORS.map((m) => m.cip));
  const families = new Set(MAJORS.map((m) => m.cip.slice(0, 2)));
  const series = new Set(MAJORS.map((m) => m.cip.slice(0, 5)));
  const isProgram = (r: Row) => /^\d\d\.\d{4}$/.test(r.CIPCode ?? '');
  const gone = (r: Row) => r.Action === 'Deleted' || r.Action === 'Moved to';
  const keep = new Set<Row>(
    rows.filter((r) => majors.has(r.CIPCode!) || families.has(r.CIPCode!) || series.has(r.CIPCode!)),
  );
  for (const r of evenSample(
    rows.filter((r) => isProgram(r) && gone(r)),
    20,
  ))
    keep.add(r);
  for (const r of evenSample(
    rows.filter((r) => isProgram(r) && !gone(r) && !keep.has(r)),
    100,
  ))
    keep.add(r);
  const cols = ['CIPFamily', 'CIPCode', 'Action', 'CIPTitle'];
  const out = [
    csvLine(cols),
    ...rows.filter((r) => keep.has(r)).map((r) => csvLine(cols.map((c) => r[c] ?? ''))),
  ];
  fs.writeFileSync(path.join(FIXTURES, 'cip-codes.csv'), out.join('\n') + '\n');
  return {
    rows: keep.size,
    current: [...keep].filter((r) => isProgram(r) && !gone(r)).length,
  };
}

/** Grid entries whose match the tests check, then an even sample, each with every entry it refers to. */
function grid() {
  const raw = JSON.parse(fs.readFileSync(GRID_INPUT, 'utf8')) as {
    _meta: Record<string, unknown>;
    colleges: Array<Record<string, unknown> & { name: string; alias_of?: string }>;
  };
  const shipped = JSON.parse(fs.readFileSync(GRID_OUTPUT, 'utf8')) as {
    _meta: Record<string, unknown>;
    colleges: Record<string, { name: string }>;
  };
  const must = [
    'Harvard University',
    'University of Michigan',
    'University of California (all campuses)',
    'California State University (all campuses)',
    'Union College',
  ];
  const byName = new Map(raw.colleges.map((c) => [c.name, c]));
  const chosen = new Set(must.map((n) => byName.get(n)!).filter(Boolean));
  for (const c of evenSample(raw.colleges, GRID_ENTRIES - chosen.size)) chosen.add(c);
  // An alias entry needs the entry it names.
  for (const c of [...chosen]) if (c.alias_of && byName.has(c.alias_of)) chosen.add(byName.get(c.alias_of)!);
  const entries = raw.colleges
    .filter((c) => chosen.has(c))
    // `essays` stays: a code ("uc_piq") the match turns into the essays a college asks for, not prose.
    .map(({ notes: _notes, ...facts }) => facts);
  // What the shipped file says of these entries must be what the full grid's match said: an entry that lost
  // a conflict to one left out here would be matched differently on its own.
  const fixture = { _meta: raw._meta, colleges: entries };
  delete (fixture._meta as { notes?: unknown }).notes;
  const file = path.join(FIXTURES, 'common-app-grid.json');
  fs.writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n');
  const { file: matched } = runMatch({ grid: file });
  const differs = Object.entries(matched.colleges).filter(
    ([id, f]) => JSON.stringify(f) !== JSON.stringify(shipped.colleges[id]),
  );
  if (differs.length) {
    const names = new Set(differs.map(([, f]) => (f as { name: string }).name));
    fixture.colleges = entries.filter((c) => !names.has(c.name) && !names.has(c.alias_of ?? ''));
    fs.writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n');
  }
  return { entries: fixture.colleges.length, dropped: differs.length };
}

/**
 * The published file's shape, limits and source pages, with prompt texts written here: each asks what the
 * published prompt in its place asks, in other words, so that the prompt kinds come out the same.
 */
function essayPrompts() {
  const real = JSON.parse(
    fs.readFileSync(path.join(SHARED, 'essay_prompts_common_app_uc_2026-27.json'), 'utf8'),
  ) as {
    _meta: { cycle: string };
    common_app: {
      cycle: string;
      word_limit_min: number;
      word_limit_max: number;
      source_url: string;
      prompts: Array<{ id: string }>;
    };
    uc_piq: { source_url: string; prompts: Array<{ id: string }> };
  };
  const ca = [
    'Tell us about a part of your background that your application would feel incomplete without.',
    'Describe an obstacle you ran into, and what you did next.',
    'Write about a time you questioned a belief or idea you had held for a long time.',
    'Write about someone who did something for you that left you grateful, and how it changed you.',
    'Describe an accomplishment or a moment that led to personal growth.',
    'Name a subject in which you lose all track of time, and say what holds you there.',
    'Write about any topic you like, in your own voice.',
  ];
  const uc = [
    'Tell us about a time you showed leadership in a group.',
    'How do you express your creative side?',
    'What is a talent or skill you are proud of, and how have you worked on it?',
    'Describe how you used an educational opportunity, or worked around a barrier to one.',
    'Describe the hardest challenge you have faced and the steps you took.',
    'Pick an academic subject that excites you and explain why.',
    'What have you done to make your school or community a better place?',
    'Beyond what you have shared, what makes you a strong candidate for admission?',
  ];
  if (ca.length !== real.common_app.prompts.length || uc.length !== real.uc_piq.prompts.length)
    throw new Error('the published file has a different number of prompts: write the fixture texts again');
  const out = {
    _meta: {
      cycle: real._meta.cycle,
      note: 'Test fixture shaped like the published Common App / UC prompts file; the prompt texts are written for the tests, not copied.',
    },
    common_app: {
      cycle: real.common_app.cycle,
      word_limit_min: real.common_app.word_limit_min,
      word_limit_max: real.common_app.word_limit_max,
      source_url: real.common_app.source_url,
      verified: true,
      prompts: real.common_app.prompts.map((p, i) => ({ id: p.id, text: ca[i]! })),
    },
    common_app_challenges_question: {
      exists: true,
      text: 'Some students apply while dealing with circumstances outside their control, such as unstable housing or duties at home. [If yes:] Describe the challenges and how they have affected you. (250 words)',
    },
    uc_piq: {
      instructions:
        'You will have 8 questions to choose from. You must respond to only 4 of the 8 questions. Each response is limited to a maximum of 350 words.',
      source_url: real.uc_piq.source_url,
      verified: true,
      prompts: real.uc_piq.prompts.map((p, i) => ({ id: p.id, text: uc[i]! })),
    },
  };
  fs.writeFileSync(path.join(FIXTURES, 'essay-prompts.json'), JSON.stringify(out, null, 1) + '\n');
}

async function main() {
  if (!fs.existsSync(SHARED)) {
    process.stderr.write(`No ${SHARED}: the fixtures are derived from the public data files there.\n`);
    process.exit(2);
  }
  fs.mkdirSync(FIXTURES, { recursive: true });
  const yearFile = await readYearFile();
  if (!yearFile) throw new Error('../shared/data/scorecard_merged_2021-22.parquet is missing');
  const inst = institutions(testSources(), yearFile);
  const dict = dictionary(inst.columns);
  const cip = await cipCodes();
  const g = grid();
  essayPrompts();
  process.stdout.write(
    `tests/fixtures: ${inst.count} institutions (${inst.named} named by tests or sharing their name), ` +
      `${dict} dictionary rows, ${cip.rows} CIP rows (${cip.current} current programs), ` +
      `${g.entries} grid entries${g.dropped ? ` (${g.dropped} left out: matched otherwise alone)` : ''}, ` +
      `essay prompts.\n`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
