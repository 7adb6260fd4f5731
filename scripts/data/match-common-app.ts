// `npm run data:match -- [--grid <common_app_deadlines.json>] [--snapshot <scorecard-snapshot.json.gz>]`
//
// Matches the Common App requirements grid (../shared/data/common_app_deadlines_2025-26.json: names, no
// UNITID) to the institutions of the shipped College Scorecard snapshot, by reviewed rules in a fixed order,
// and writes
//   - packages/providers/data/common-app-grid.json: the grid facts (deadlines by plan, fees, test policy,
//     recommendations, writing supplement...) keyed by UNITID, with the grid's _meta and MIT notice. Essay
//     prompt texts are not part of it.
//   - docs/data/common-app-match.md: how many entries matched, by which rule, and every one left out, why.
// A name is matched only when exactly one institution fits; anything ambiguous is left out (or settled by
// the hand-reviewed OVERRIDES below, each with its reason).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normaliseCollegeName } from '@ct/contracts';
import type { GridFacts, GridFile } from '@ct/providers';
import { readSnapshotFile, snapshotRecords } from '@ct/colleges/snapshot-file';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const GRID_INPUT = path.resolve(ROOT, '../shared/data/common_app_deadlines_2025-26.json');
export const GRID_OUTPUT = path.join(ROOT, 'packages/providers/data/common-app-grid.json');
export const REPORT = path.join(ROOT, 'docs/data/common-app-match.md');

/** Where the grid came from (shared/data/README.md, section 5). */
const ORIGIN = {
  repository: 'https://github.com/emili-kosik/admission-skills',
  path: 'data/deadlines.json',
  commit: 'cd78acbe57c75c13bae481eaa615efd390a4ac5a',
  license: 'MIT',
};

/**
 * The MIT licence of the grid's repository, kept with the facts taken from it. The repository names no
 * copyright holder beyond its author's account, so the notice names it.
 */
const MIT_NOTICE = `Copyright (c) emili-kosik (https://github.com/emili-kosik/admission-skills)

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/**
 * Hand-reviewed matches the rules cannot make, each checked against the Scorecard's name, city and state.
 * `unitids` lists every institution the entry speaks for (a system-wide entry covers several campuses).
 */
export const OVERRIDES: Array<{ grid: string; unitids: number[]; reason: string }> = [
  // System-wide entries: one application and one set of requirements for every campus
  {
    grid: 'University of California (all campuses)',
    unitids: [110635, 110644, 110653, 110662, 110671, 110680, 110705, 110714, 445188],
    reason: 'one UC application for the nine undergraduate campuses (UCSF admits no undergraduates)',
  },
  {
    grid: 'Union College',
    unitids: [196866],
    reason:
      'the Common App member of the name, with the Early Decision I and II and Early Action plans the entry ' +
      'lists (Schenectady, NY); the other institutions of the name are not Common App members',
  },
  {
    grid: 'California State University (all campuses)',
    unitids: [
      110422, 110486, 110495, 110510, 110529, 110538, 110547, 110556, 110565, 110574, 110583, 110592, 110608,
      110617, 111188, 115755, 122409, 122597, 122755, 123572, 366711, 409698, 441937,
    ],
    reason: 'one Cal State Apply application for the 23 CSU campuses',
  },
  {
    grid: 'Pennsylvania Western University',
    unitids: [211361, 211644, 212160],
    reason:
      'formed in July 2022 from California, Clarion and Edinboro Universities of Pennsylvania, which the 2021-22 data lists apart',
  },
  // Renamed since the Scorecard data year
  {
    grid: 'East Texas A&M University',
    unitids: [224554],
    reason: 'renamed in 2024 from Texas A&M University-Commerce',
  },
  { grid: 'Edgewood University', unitids: [238661], reason: 'renamed in 2024 from Edgewood College' },
  { grid: 'Manhattan University', unitids: [192703], reason: 'renamed in 2024 from Manhattan College' },
  {
    grid: 'Manhattanville University',
    unitids: [192749],
    reason: 'renamed in 2024 from Manhattanville College',
  },
  { grid: 'Marist University', unitids: [192819], reason: 'renamed in 2024 from Marist College' },
  { grid: 'Molloy University', unitids: [193292], reason: 'renamed in 2022 from Molloy College' },
  { grid: 'Siena University', unitids: [195474], reason: 'renamed in 2024 from Siena College' },
  // A university the grid lists without a campus: its flagship
  {
    grid: 'University of Michigan',
    unitids: [170976],
    reason: 'the flagship Ann Arbor campus (Dearborn and Flint apply separately)',
  },
  {
    grid: 'University of Maryland',
    unitids: [163286],
    reason: 'the flagship College Park campus (UMBC has its own entry)',
  },
  {
    grid: 'University of Missouri',
    unitids: [178396],
    reason: 'the flagship Columbia campus (Kansas City and St. Louis are separate)',
  },
  {
    grid: 'Missouri State University',
    unitids: [179566],
    reason: 'the Springfield campus (West Plains is a separate two-year campus)',
  },
  {
    grid: 'Texas A&M University',
    unitids: [228723],
    reason: 'the flagship College Station campus (the other Texas A&M universities apply separately)',
  },
  {
    grid: 'Arizona State University',
    unitids: [104151],
    reason: 'the Tempe campus, which the Scorecard calls "Campus Immersion"',
  },
  // Names the Scorecard spells otherwise
  { grid: 'Air Force Academy', unitids: [128328], reason: 'the United States Air Force Academy' },
  {
    grid: 'AMDA The American Musical and Dramatic Academy',
    unitids: [188854],
    reason: '"American Musical and Dramatic Academy" (New York) in the Scorecard',
  },
  {
    grid: 'Elim Bible College',
    unitids: [488305],
    reason: '"Elim Bible Institute and College" in the Scorecard',
  },
  {
    grid: 'Grace College',
    unitids: [150677],
    reason:
      'Grace College of Winona Lake, Indiana: "Grace College and Theological Seminary" in the Scorecard',
  },
  {
    grid: 'Hobart and William Smith Colleges',
    unitids: [191630],
    reason: '"Hobart William Smith Colleges" in the Scorecard',
  },
  {
    grid: 'Hult International Business School – U.S, U.K, Dubai',
    unitids: [164368],
    reason: "the Scorecard lists Hult's U.S. institution (Cambridge, MA)",
  },
  {
    grid: 'Keiser University Flagship Campus - West Palm Beach Florida',
    unitids: [135081],
    reason: 'the Scorecard reports Keiser University, all its Florida campuses, as one institution (135081)',
  },
  { grid: 'LeMoyne-Owen College', unitids: [220604], reason: '"Le Moyne-Owen College" in the Scorecard' },
  {
    grid: 'Lincoln University of Pennsylvania',
    unitids: [213598],
    reason: 'the Lincoln University in Pennsylvania (three institutions share the name)',
  },
  {
    grid: 'List College The Jewish Theological Seminary',
    unitids: [192040],
    reason:
      'the undergraduate college of the Jewish Theological Seminary of America, one institution in the Scorecard',
  },
  {
    grid: 'Louisiana State University A&M-Baton Rouge',
    unitids: [159391],
    reason: '"Louisiana State University and Agricultural & Mechanical College" in the Scorecard',
  },
  {
    grid: 'Massachusetts College of Pharmacy and Health Sciences',
    unitids: [166656],
    reason: 'MCPHS University',
  },
  {
    grid: 'Millersville University',
    unitids: [214041],
    reason: '"Millersville University of Pennsylvania" in the Scorecard',
  },
  {
    grid: 'Oberlin College of Arts and Sciences',
    unitids: [204501],
    reason: 'the Scorecard reports Oberlin College as one institution; its Conservatory entry is left out',
  },
  {
    grid: "Simon's Rock at Bard College",
    unitids: [167792],
    reason: `"Bard College at Simon's Rock" in the Scorecard`,
  },
  {
    grid: 'SUNY Alfred State College of Technology',
    unitids: [196006],
    reason: '"SUNY College of Technology at Alfred" in the Scorecard',
  },
  {
    grid: 'SUNY Buffalo State',
    unitids: [196130],
    reason: '"SUNY Buffalo State University" in the Scorecard',
  },
  { grid: 'SUNY College at Brockport', unitids: [196121], reason: '"SUNY Brockport" in the Scorecard' },
  { grid: 'SUNY College at Old Westbury', unitids: [196237], reason: '"SUNY Old Westbury" in the Scorecard' },
  { grid: 'SUNY Fredonia', unitids: [196158], reason: '"SUNY at Fredonia" in the Scorecard' },
  {
    grid: 'SUNY Morrisville State College',
    unitids: [196051],
    reason: '"SUNY Morrisville" in the Scorecard',
  },
  {
    grid: 'SUNY New Paltz',
    unitids: [196176],
    reason: '"State University of New York at New Paltz" in the Scorecard',
  },
  {
    grid: 'The Citadel, The Military College of South Carolina',
    unitids: [217864],
    reason: '"Citadel Military College of South Carolina" in the Scorecard',
  },
  {
    grid: "The Master's University",
    unitids: [117751],
    reason: `"The Master's University and Seminary" in the Scorecard`,
  },
  {
    grid: 'William Paterson University of NJ',
    unitids: [187444],
    reason: '"William Paterson University of New Jersey" in the Scorecard',
  },
];

const OUTSIDE_US = 'outside the United States: the College Scorecard covers U.S. institutions only';
const NOT_AN_INSTITUTION = 'not an institution';

/** Entries deliberately left out, with the reason. */
export const EXCLUDED: Array<{ grid: string; reason: string }> = [
  ...[
    'Aberystwyth University',
    'Al Akhawayn University in Ifrane',
    'American College of the Mediterranean (ACM)',
    'American University in Bulgaria',
    'American University of Beirut (AUB)',
    'Anglo-American University in Prague',
    'Arts University Bournemouth, UK',
    'Bard College Berlin',
    "Bishop's University",
    'Carnegie Mellon University in Qatar',
    'CUNEF Universidad',
    'Dublin City University',
    'Duke Kunshan University',
    'Edinburgh Napier University',
    'EHL Hospitality Business School',
    'Esade Barcelona',
    'ESCP Business School',
    'Franklin University Switzerland',
    'ICN Business School',
    'IE University - Madrid Campus and Segovia Campus',
    'John Cabot University in Rome',
    'Lebanese American University - LAU',
    'Leeds Beckett University',
    'Mary Immaculate College',
    'Mohamed bin Zayed University of Artificial Intelligence',
    'Mondragon University',
    'Northwestern University in Qatar',
    "Queen's University, Canada",
    'Richmond The American International University in London',
    'Saint Louis University- Madrid',
    'Salzburg College',
    'Shanghai Jiao Tong University Global College',
    'St. Thomas University, Canada',
    'Taejae University',
    'Temple University, Japan Campus',
    'The American College of Greece',
    'The American University of Paris',
    'The American University of Rome',
    'The University of Hong Kong',
    'UCAM Universidad Católica de Murcia',
    'Universidad Carlos III de Madrid',
    'University College Dublin',
    'University of Aberdeen',
    'University of Bradford',
    'University of Dundee',
    'University of East London',
    'University of Glasgow',
    'University of Guelph',
    'University of Limerick',
    'University of Plymouth',
    'University of Roehampton, London',
    'University of St Andrews',
    'University of Stirling',
    'University of the Highlands and Islands',
    'University of the West of England (UWE), Bristol',
    'University of Worcester (UK)',
    'Westlake University',
  ].map((grid) => ({ grid, reason: OUTSIDE_US })),
  { grid: 'ApplyTexas (Texas public universities)', reason: `${NOT_AN_INSTITUTION}: an application system` },
  { grid: 'Jack Kent Cooke Foundation', reason: `${NOT_AN_INSTITUTION}: a scholarship foundation` },
  {
    grid: 'AMDA College of the Performing Arts',
    reason: "AMDA's Los Angeles campus: the Scorecard lists AMDA once, matched to its New York entry",
  },
  {
    grid: 'Oberlin Conservatory of Music',
    reason: 'part of Oberlin College, which is matched to its College of Arts and Sciences entry',
  },
  {
    grid: 'St. Joseph’s University, New York - Long Island Campus',
    reason:
      "the Scorecard reports St. Joseph's University, New York as one institution, matched to the Brooklyn entry",
  },
  {
    grid: 'New York School of Career and Applied Studies of Touro University',
    reason: "a school within Touro University: its requirements are not the university's as a whole",
  },
  {
    grid: 'Wilkes Honors College of FAU',
    reason: "an honors college within Florida Atlantic University: its requirements are not FAU's as a whole",
  },
  {
    grid: 'Texas A&M University at Galveston',
    reason: 'a branch campus the Scorecard reports with Texas A&M University-College Station',
  },
];

interface RawEntry {
  name: string;
  alias_of?: string;
  system?: string;
  deadlines?: Record<string, string>;
  annual_rules?: Record<string, string>;
  fees?: { us?: number | null; intl?: number | null } | null;
  personal_essay?: boolean | null;
  /** Which essay set the college asks for instead of the Common App's ("uc_piq") */
  essays?: string | null;
  writing_supplement?: string | null;
  courses_and_grades?: string | null;
  portfolio?: string | null;
  test_policy?: string | null;
  tests_used?: string | null;
  english_tests?: string | null;
  recs?: GridFacts['recs'] | null;
  admission_type?: string | null;
}

interface Institution {
  id: number;
  name: string;
  aliases: string[];
  city: string;
  state: string;
  main: boolean;
}

/** How a grid name was read before it was looked up (the name as written comes first). */
type Reading =
  'as written' | 'state in the name' | 'abbreviation dropped' | 'two names in one' | 'SUNY prefix dropped';
/** How the name was found among the institutions. */
type Finder =
  | 'exact name'
  | 'leading "The"'
  | 'Saint / St. / apostrophes'
  | 'campus suffix'
  | 'city in the name'
  | 'Scorecard alias';
/** A rule: how the name was read and how it was found ("exact name" for the plain case), or the table. */
export type Rule = string;

const STATES: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
  'puerto rico': 'PR',
  'district of columbia': 'DC',
};
const CODES = new Set(Object.values(STATES));
const STATE_WORDS = Object.keys(STATES)
  .sort((a, b) => b.length - a.length)
  .join('|');
/** "(IN)", "(Illinois)", "-TN", " - Indiana", " Missouri", ", SC" at the end of a name. */
const TRAILING_STATE = new RegExp(
  `^(.*?)(?:\\s*\\(\\s*(${STATE_WORDS}|[A-Z]{2})\\s*\\)|\\s*[-–,]\\s*(${STATE_WORDS}|[A-Z]{2})|\\s+(${STATE_WORDS}))\\s*$`,
  'i',
);

const n = normaliseCollegeName;
const noThe = (s: string) => s.replace(/^the /, '');
/** Saint, St. and Ste. alike; "St. John's" and "St Johns" alike. */
const loose = (s: string) =>
  noThe(n(s.replace(/['’]/g, '')))
    .replace(/\bsaint\b/g, 'st')
    .replace(/\bste\b/g, 'st')
    .replace(/ at /g, ' ')
    .replace(/ (main )?campus$/, '');
/** "University of Michigan-Ann Arbor" → "University of Michigan"; "Kent State University at Kent" likewise. */
const campusBase = (name: string) => name.replace(/\s*-\s*[^-]+$/, '').replace(/\s+at\s+[^,]+$/i, '');
const campusOf = (name: string) =>
  (/\s*-\s*([^-]+)$/.exec(name) ?? /\s+at\s+([^,]+)$/i.exec(name))?.[1] ?? '';

export interface MatchResult {
  grid: RawEntry;
  rule: Rule | null;
  unitids: number[];
  /** Why it was left out (no match, or several institutions fit), or why the table matched it */
  reason?: string;
}

function index<T>(items: T[], keys: (t: T) => string[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    for (const k of new Set(keys(it))) {
      if (!k) continue;
      const list = m.get(k) ?? [];
      list.push(it);
      m.set(k, list);
    }
  }
  return m;
}

/** The ways a grid name is read: as written first, then with a state, an abbreviation or a prefix taken off. */
function readings(name: string): Array<{ name: string; state: string | null; via: Reading }> {
  const out: Array<{ name: string; state: string | null; via: Reading }> = [
    { name, state: null, via: 'as written' },
  ];
  const st = TRAILING_STATE.exec(name);
  if (st) {
    const word = (st[2] ?? st[3] ?? st[4] ?? '').trim();
    const code =
      STATES[word.toLowerCase()] ??
      (CODES.has(word.toUpperCase()) && word === word.toUpperCase() ? word : null);
    if (code && st[1]!.trim()) out.push({ name: st[1]!.trim(), state: code, via: 'state in the name' });
  }
  const abbr = /^(.*?)\s*(?:\(([^)]+)\)|[-–]\s*([A-Z]{2,6}))\s*$/.exec(name);
  if (abbr && abbr[1]!.trim() && !/campus/i.test(abbr[2] ?? '')) {
    out.push({ name: abbr[1]!.trim(), state: null, via: 'abbreviation dropped' });
  }
  for (const sep of [': ', ' - ']) {
    const i = name.indexOf(sep);
    if (i <= 0) continue;
    // Each part must be a name of its own: not a campus ("Northern Campus"), not a single word.
    for (const part of [name.slice(i + sep.length).trim(), name.slice(0, i).trim()]) {
      if (!/campus$/i.test(part) && part.split(/\s+/).length > 1)
        out.push({ name: part, state: null, via: 'two names in one' });
    }
  }
  // "Purchase College, SUNY": the name before its system's
  const system = /^(.+?),\s*(SUNY|CUNY)$/.exec(name);
  if (system) out.push({ name: system[1]!, state: 'NY', via: 'two names in one' });
  const suny = /^SUNY,?\s+(.+)$/.exec(name);
  if (suny) out.push({ name: suny[1]!, state: 'NY', via: 'SUNY prefix dropped' });
  return out;
}

/** Matches every grid entry to institutions; returns one result per entry (aliases included). */
export function matchGrid(entries: RawEntry[], institutions: Institution[]): MatchResult[] {
  const byName = index(institutions, (i) => [n(i.name)]);
  const byNoThe = index(institutions, (i) => [noThe(n(i.name))]);
  const byLoose = index(institutions, (i) => [loose(i.name)]);
  const byCampusBase = index(institutions, (i) => [loose(campusBase(i.name))]);
  const byAlias = index(institutions, (i) => i.aliases.map((a) => loose(a)));
  const overrides = new Map(OVERRIDES.map((o) => [o.grid, o]));
  const excluded = new Map(EXCLUDED.map((e) => [e.grid, e.reason]));

  const results: MatchResult[] = [];
  for (const e of entries) {
    if (e.alias_of) {
      results.push({
        grid: e,
        rule: null,
        unitids: [],
        reason: `alias of "${e.alias_of}" (no facts of its own)`,
      });
      continue;
    }
    const o = overrides.get(e.name);
    if (o) {
      results.push({
        grid: e,
        rule: o.unitids.length > 1 ? 'system-wide entry (table)' : 'override (table)',
        unitids: o.unitids,
        reason: o.reason,
      });
      continue;
    }
    const why = excluded.get(e.name);
    if (why) {
      results.push({ grid: e, rule: null, unitids: [], reason: why });
      continue;
    }
    let done = false;
    let stop = false;
    const ambiguous: string[] = [];
    for (const r of readings(e.name)) {
      const inState = (list: Institution[] | undefined) =>
        (list ?? []).filter((i) => r.state === null || i.state === r.state);
      const finders: Array<[Finder, () => Institution[]]> = [
        ['exact name', () => inState(byName.get(n(r.name)))],
        ['leading "The"', () => inState(byNoThe.get(noThe(n(r.name))))],
        ['Saint / St. / apostrophes', () => inState(byLoose.get(loose(r.name)))],
        [
          'campus suffix',
          () => {
            // Only the main campus speaks for a name without a campus: "-Main Campus" first, else the one
            // campus the Scorecard marks main.
            const list = inState(byCampusBase.get(loose(r.name)));
            const named = list.filter((i) => /^main campus$/i.test(campusOf(i.name).trim()));
            if (named.length === 1) return named;
            return list.filter((i) => i.main);
          },
        ],
        [
          'city in the name',
          () => {
            // "Mount Saint Mary's University Los Angeles": a name followed by the institution's city.
            const key = loose(r.name);
            return institutions.filter(
              (i) =>
                (r.state === null || i.state === r.state) &&
                i.city &&
                key === `${loose(i.name)} ${loose(i.city)}`,
            );
          },
        ],
        // A one-word alias ("Northern", "Bethany") says too little to match on.
        ['Scorecard alias', () => (loose(r.name).includes(' ') ? inState(byAlias.get(loose(r.name))) : [])],
      ];
      for (const [finder, find] of finders) {
        const list = find();
        if (!list.length) continue;
        // Several institutions of one name: only a single main campus speaks for it (a branch listed
        // under the same name is not another college); otherwise the entry is ambiguous and left out.
        const mains = list.filter((i) => i.main);
        const hit = list.length === 1 ? list[0]! : mains.length === 1 ? mains[0]! : null;
        if (hit) {
          const rule =
            r.via === 'as written' ? finder : finder === 'exact name' ? r.via : `${r.via}, then ${finder}`;
          results.push({ grid: e, rule, unitids: [hit.id] });
          done = true;
          break;
        }
        stop = true;
        ambiguous.push(
          `${finder}: ${list
            .slice(0, 6)
            .map((i) => `${i.name} (${i.city}, ${i.state}; ${i.id})`)
            .join('; ')}${list.length > 6 ? ` and ${list.length - 6} more` : ''}`,
        );
        break;
      }
      if (done || stop) break;
    }
    if (done) continue;
    results.push({
      grid: e,
      rule: null,
      unitids: [],
      reason: ambiguous.length
        ? `several institutions fit (${ambiguous[0]})`
        : 'no institution of this name (or a reviewed variant of it) in the Scorecard data',
    });
  }
  return results;
}

/**
 * The essays a college asks for in place of the Common App's, as the grid states them: UC's entry names
 * the Personal Insight Questions (4 answered of 8, up to 350 words each).
 */
const UC_ESSAYS: Record<string, NonNullable<GridFacts['own_essays']>> = {
  uc_piq: { name: 'Personal Insight Questions', required: 4, of: 8, words: 350 },
};

/** The facts shipped for one grid entry: everything but prose and essay references. */
function facts(e: RawEntry): GridFacts {
  return {
    name: e.name,
    system: e.system ?? null,
    deadlines: e.deadlines ?? {},
    ...(e.annual_rules ? { annual_rules: e.annual_rules } : {}),
    fees: e.fees ? { us: e.fees.us ?? null, intl: e.fees.intl ?? null } : null,
    personal_essay: e.personal_essay ?? null,
    ...(e.essays && UC_ESSAYS[e.essays] ? { own_essays: UC_ESSAYS[e.essays] } : {}),
    writing_supplement: e.writing_supplement ?? null,
    courses_and_grades: e.courses_and_grades ?? null,
    portfolio: e.portfolio ?? null,
    test_policy: e.test_policy ?? null,
    tests_used: e.tests_used ?? null,
    english_tests: e.english_tests ?? null,
    recs: e.recs ?? null,
    admission_type: e.admission_type ?? null,
  };
}

export interface MatchSummary {
  entries: number;
  aliases: number;
  real: number;
  matched: number;
  byRule: Record<Rule, number>;
  leftOut: number;
  /** UNITIDs in the shipped file */
  institutions: number;
  /** Entries matched to an institution another entry also matched (the first is kept) */
  conflicts: Array<{ unitid: number; kept: string; dropped: string }>;
}

export function runMatch(opts: { grid?: string; snapshot?: string } = {}) {
  const raw = JSON.parse(fs.readFileSync(opts.grid ?? GRID_INPUT, 'utf8')) as {
    _meta: Record<string, unknown>;
    colleges: RawEntry[];
  };
  const snapshot = readSnapshotFile(opts.snapshot);
  const institutions: Institution[] = [];
  for (const r of snapshotRecords(snapshot)) {
    institutions.push({
      id: Number(r.UNITID),
      name: r.INSTNM ?? '',
      aliases: (r.ALIAS ?? '').split(/\s*[|;,]\s*|\s{2,}/).filter((a) => a.length > 1),
      city: r.CITY ?? '',
      state: r.STABBR ?? '',
      main: r.MAIN === '1',
    });
  }
  const results = matchGrid(raw.colleges, institutions);
  const byRule: Record<Rule, number> = {};
  const colleges: Record<string, GridFacts> = {};
  const conflicts: MatchSummary['conflicts'] = [];
  const names = new Map(institutions.map((i) => [i.id, i]));
  for (const r of results) {
    if (!r.rule) continue;
    byRule[r.rule] = (byRule[r.rule] ?? 0) + 1;
    for (const id of r.unitids) {
      if (!names.has(id))
        throw new Error(`override for "${r.grid.name}": UNITID ${id} is not in the snapshot`);
      const prior = colleges[String(id)];
      if (prior) {
        conflicts.push({ unitid: id, kept: prior.name, dropped: r.grid.name });
        continue;
      }
      colleges[String(id)] = facts(r.grid);
    }
  }
  const aliases = results.filter((r) => r.grid.alias_of).length;
  const matched = results.filter((r) => r.rule).length;
  const summary: MatchSummary = {
    entries: results.length,
    aliases,
    real: results.length - aliases,
    matched,
    byRule,
    leftOut: results.length - aliases - matched,
    institutions: Object.keys(colleges).length,
    conflicts,
  };
  const file: GridFile = {
    _meta: {
      ...(raw._meta as GridFile['_meta']),
      origin: ORIGIN,
      notice: MIT_NOTICE,
      matched: {
        by: 'scripts/data/match-common-app.ts',
        report: 'docs/data/common-app-match.md',
        snapshot: snapshot.version,
        entries: summary.real,
        matched: summary.matched,
        institutions: summary.institutions,
      },
    },
    colleges,
  };
  return { results, summary, file, institutions: names };
}

function reportMarkdown(
  results: MatchResult[],
  s: MatchSummary,
  names: Map<number, Institution>,
  meta: Record<string, unknown>,
): string {
  const pct = (x: number) => `${((x / s.real) * 100).toFixed(1)} %`;
  const lines: string[] = [
    '# Common App requirements grid: match to College Scorecard institutions',
    '',
    'Written by `npm run data:match` (scripts/data/match-common-app.ts); do not edit by hand.',
    '`tests/data/common-app-match.test.ts` checks the shipped file against the counts below.',
    '',
    `Grid: ${String(meta.source)} (cycle ${String(meta.cycle)}, updated ${String(meta.source_updated)}), taken from`,
    `${ORIGIN.repository} \`${ORIGIN.path}\` at ${ORIGIN.commit} (${ORIGIN.license} licence).`,
    '',
    '## Counts',
    '',
    `| | entries |`,
    `|---|---|`,
    `| Entries in the grid | ${s.entries} |`,
    `| Aliases (no facts of their own) | ${s.aliases} |`,
    `| Real entries | ${s.real} |`,
    `| **Matched** | **${s.matched}** (${pct(s.matched)}) |`,
    ...Object.entries(s.byRule)
      .sort((a, b) => Number(b[0] === 'exact name') - Number(a[0] === 'exact name') || b[1] - a[1])
      .map(([r, count]) => `| by ${r} | ${count} |`),
    `| **Left out** | **${s.leftOut}** (${pct(s.leftOut)}) |`,
    '',
    `The shipped file holds the facts of ${s.institutions} institutions (UNITIDs): a system-wide entry speaks for`,
    'each of its campuses.',
    '',
    '## Rules, in order',
    '',
    'Names are compared normalised (case, accents and punctuation ignored, `&` read as `and`). A rule matches when',
    'exactly one institution fits, or when of several that fit exactly one is a main campus (a branch listed under',
    'the same name is not another college); when several main campuses fit, the entry is left out as ambiguous.',
    '',
    'A grid name is read as written first, then',
    '- **state in the name**: "Anderson University (IN)", "Augustana College (Illinois)", "Bethel University-TN",',
    '  "Columbia College Missouri": the name without the state, among the institutions of that state;',
    '- **abbreviation dropped**: "California Institute of Technology (Caltech)", "Lebanese American University - LAU";',
    '- **two names in one**: "Sewanee: The University of the South", "Purchase College, SUNY": each part;',
    '- **SUNY prefix dropped**: "SUNY Stony Brook University" is "Stony Brook University" (New York).',
    '',
    'Each reading is looked up, in this order, by',
    '1. **exact name**: the Scorecard name (INSTNM);',
    '2. **leading "The"** ignored on both sides;',
    '3. **Saint / St. / apostrophes**: "Saint", "St." and "Ste." read alike, and "St. John\'s" as "St Johns";',
    '4. **campus suffix**: "University of Akron" is the one main campus among "University of Akron-…" or',
    '   "… at …" ("-Main Campus" first, else the campus the Scorecard marks main);',
    '5. **city in the name**: "Mount Saint Mary\'s University Los Angeles" is that university in Los Angeles;',
    "6. **Scorecard alias**: one of the institution's Scorecard aliases (ALIAS).",
    '',
    'A rule such as "state in the name, then campus suffix" names the reading and the lookup. Last, the',
    '**table** in the script: hand-reviewed matches (renamed institutions, flagships of a university listed',
    'without a campus, system-wide entries that speak for every campus) and deliberate exclusions, each with',
    'its reason.',
    '',
  ];
  const manual = results.filter((r) => r.rule?.endsWith('(table)'));
  if (manual.length) {
    lines.push('## Hand-reviewed matches', '', '| Grid name | Institutions | Reason |', '|---|---|---|');
    for (const r of manual) {
      const who = r.unitids.map((id) => `${names.get(id)?.name ?? '?'} (${id})`).join('; ');
      lines.push(`| ${r.grid.name} | ${who} | ${r.reason ?? ''} |`);
    }
    lines.push('');
  }
  if (s.conflicts.length) {
    lines.push('## Entries matched to an institution another entry already had', '');
    for (const c of s.conflicts) lines.push(`- ${c.unitid}: kept "${c.kept}", dropped "${c.dropped}"`);
    lines.push('');
  }
  const left = results.filter((r) => !r.rule && !r.grid.alias_of);
  lines.push(`## Left out (${left.length})`, '', '| Grid name | Why |', '|---|---|');
  for (const r of left.sort((a, b) => a.grid.name.localeCompare(b.grid.name))) {
    lines.push(`| ${r.grid.name.replace(/\|/g, '\\|')} | ${(r.reason ?? '').replace(/\|/g, '\\|')} |`);
  }
  lines.push('', '## Aliases', '');
  for (const r of results.filter((x) => x.grid.alias_of)) lines.push(`- ${r.grid.name}: ${r.reason}`);
  lines.push('');
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const { results, summary, file, institutions } = runMatch({
    grid: arg('--grid'),
    snapshot: arg('--snapshot'),
  });
  fs.mkdirSync(path.dirname(GRID_OUTPUT), { recursive: true });
  // One entry per line: small diffs when the grid is matched again.
  const body = Object.entries(file.colleges)
    .map(([id, f]) => `    ${JSON.stringify(id)}: ${JSON.stringify(f)}`)
    .join(',\n');
  fs.writeFileSync(
    GRID_OUTPUT,
    `{\n  "_meta": ${JSON.stringify(file._meta)},\n  "colleges": {\n${body}\n  }\n}\n`,
  );
  fs.mkdirSync(path.dirname(REPORT), { recursive: true });
  fs.writeFileSync(REPORT, reportMarkdown(results, summary, institutions, file._meta));
  process.stdout.write(
    `Matched ${summary.matched} of ${summary.real} grid entries (${summary.byRule['exact name'] ?? 0} by exact name), ` +
      `${summary.leftOut} left out; ${summary.institutions} institutions in ${path.relative(ROOT, GRID_OUTPUT)}\n` +
      `Report: ${path.relative(ROOT, REPORT)}\n`,
  );
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  });
}
