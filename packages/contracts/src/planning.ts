/**
 * Plain planning rules shared by the server and the browser (no schema library, safe for the bundle:
 * import from `@ct/contracts/planning`): the student's money profile, day counts and countdowns,
 * financial-aid dates of the coming cycle, recommender "ask by" dates, and essay prompt keys, word
 * limits, word counts and college mentions.
 */
import type { DataYears } from './college.ts';
import { NET_PRICE_BANDS, normaliseCollegeName, type NetPriceKey } from './constants.ts';
import { compareIso, formatNumberEnUs } from './numbers.ts';

// ---- the student's money profile ----

/** Household income bands, as the College Scorecard reports net price (NPT41..NPT45). */
export const INCOME_BANDS = NET_PRICE_BANDS.map((b) => b.label);
export type IncomeBand = (typeof NET_PRICE_BANDS)[number]['label'];

/** The finance field that holds the net price for an income band. */
export function netPriceKeyOf(band: IncomeBand): NetPriceKey {
  return NET_PRICE_BANDS.find((b) => b.label === band)!.key;
}

/** "48001-75000" → "$48,001–$75,000", "110001+" → "$110,001 or more". */
export function incomeBandText(band: IncomeBand): string {
  const money = (n: string) => `$${formatNumberEnUs(Number(n))}`;
  if (band.endsWith('+')) return `${money(band.slice(0, -1))} or more`;
  const [lo, hi] = band.split('-') as [string, string];
  return `${money(lo)}–${money(hi)}`;
}

/** U.S. states, D.C. and the territories the College Scorecard lists (STABBR), by postal code. */
export const US_STATES = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
  ['AS', 'American Samoa'],
  ['FM', 'Federated States of Micronesia'],
  ['GU', 'Guam'],
  ['MH', 'Marshall Islands'],
  ['MP', 'Northern Mariana Islands'],
  ['PW', 'Palau'],
  ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
] as const;
export type StateCode = (typeof US_STATES)[number][0];
export const STATE_CODES = US_STATES.map(([code]) => code);

/** A state's name by its code ("ME" → "Maine"); the code itself when unknown. */
export function stateName(code: string): string {
  return US_STATES.find(([c]) => c === code)?.[1] ?? code;
}

/**
 * Which tuition applies to a student: in-state when the college is in their home state, out-of-state
 * when it is not, and both ('unknown') when either state is not known.
 */
export function tuitionResidency(
  homeState: string | null | undefined,
  collegeState: string | null | undefined,
): 'in-state' | 'out-of-state' | 'unknown' {
  if (!homeState || !collegeState) return 'unknown';
  return homeState.toUpperCase() === collegeState.trim().toUpperCase() ? 'in-state' : 'out-of-state';
}

/** A year as a source names it: its `dataYear`, else a year its title names ("College Scorecard, 2021-22"). */
export function sourceYear(
  s: { title?: string | undefined; dataYear?: string | undefined } | undefined,
): string | null {
  if (!s) return null;
  if (s.dataYear?.trim()) return s.dataYear.trim();
  const m = /(?:^|[\s,(])(\d{4}-\d{2})(?![\d-])/.exec(s.title ?? '');
  return m ? m[1]! : null;
}

const FINANCE = 'demographics.finance';
const MONEY_YEAR_PATHS = {
  netPrice: ['avgNetPrice', ...NET_PRICE_BANDS.map((b) => b.key)].map((k) => `${FINANCE}.${k}`),
  cost: ['inStateTuition', 'outOfStateTuition', 'costAttendance'].map((k) => `${FINANCE}.${k}`),
  debt: [`${FINANCE}.medianDebt`],
  earnings: [`${FINANCE}.medianEarnings`],
} as const;
export type MoneyYears = Pick<DataYears, keyof typeof MONEY_YEAR_PATHS>;

/**
 * The data year of each group of money figures: the document's own `dataYears` first, else the year of
 * the source of those figures (the figure's own source, else the finance part's, else the demographics').
 */
export function moneyDataYears(
  dataYears: DataYears | undefined,
  sources: Record<string, { title?: string | undefined; dataYear?: string | undefined }> | undefined,
): MoneyYears {
  const src = sources ?? {};
  const out: MoneyYears = {};
  for (const [group, paths] of Object.entries(MONEY_YEAR_PATHS) as Array<
    [keyof MoneyYears, readonly string[]]
  >) {
    const year =
      dataYears?.[group] ??
      paths.map((p) => sourceYear(src[p])).find(Boolean) ??
      sourceYear(src[FINANCE]) ??
      sourceYear(src.demographics);
    if (year) out[group] = year;
  }
  return out;
}

/**
 * The data year of every group of official figures a page shows: the money groups as `moneyDataYears`
 * finds them, and the admission rate and graduation rate from the document's own `dataYears`, else their
 * own source, else the demographics' source.
 */
export function officialDataYears(
  dataYears: DataYears | undefined,
  sources: Record<string, { title?: string | undefined; dataYear?: string | undefined }> | undefined,
): DataYears {
  const src = sources ?? {};
  const out: DataYears = { ...moneyDataYears(dataYears, sources) };
  const own = {
    admissions: 'demographics.admissionRate',
    completion: 'demographics.graduationRate',
  } as const;
  for (const [group, path] of Object.entries(own) as Array<[keyof typeof own, string]>) {
    const year = dataYears?.[group] ?? sourceYear(src[path]) ?? sourceYear(src.demographics);
    if (year) out[group] = year;
  }
  return { ...out, ...dataYears };
}

// ---- calendar days ----

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function utcDay(date: string): number {
  const m = ISO_DAY.exec(date);
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/** True for a real calendar day written YYYY-MM-DD. */
export function isIsoDay(date: string): boolean {
  const t = utcDay(date);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === date;
}

/** Today in the local time zone of whoever runs this, as YYYY-MM-DD. */
export function localToday(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcDay(to) - utcDay(from)) / DAY_MS);
}

/** The day `n` days after `date` (before, when negative). */
export function addDays(date: string, n: number): string {
  return new Date(utcDay(date) + n * DAY_MS).toISOString().slice(0, 10);
}

/** "today", "tomorrow", "in 12 days", "yesterday", "3 days ago". */
export function countdownText(date: string, today: string): string {
  const d = daysBetween(today, date);
  if (d === 0) return 'today';
  if (d === 1) return 'tomorrow';
  if (d === -1) return 'yesterday';
  return d > 0 ? `in ${d} days` : `${-d} days ago`;
}

// ---- financial aid dates of the coming cycle ----

/** Reminders a calendar gives before every deadline, in days. */
export const REMINDER_DAYS = [30, 14, 7, 1] as const;

/** How many weeks before a college's earliest deadline a student should ask for recommendations. */
export const RECOMMENDER_LEAD_DAYS = 28;

export interface AidDate {
  form: 'FAFSA' | 'CSS Profile' | 'Reply date';
  /** e.g. "FAFSA opens (2027–28)" */
  title: string;
  /** YYYY-MM-DD */
  date: string;
  details: string;
  url: string;
}

/**
 * The fall a student is applying for: from July on, the coming cycle is next fall's; before July it is
 * this fall's (a senior in March is still finishing this cycle).
 */
export function entryYear(today: string): number {
  const [y, m] = today.split('-').map(Number) as [number, number];
  return m >= 7 ? y + 1 : y;
}

/**
 * FAFSA and CSS Profile dates for the coming cycle: both open on October 1 of the year before entry;
 * the federal FAFSA deadline is June 30 at the end of the award year. States and colleges set earlier
 * deadlines, which the details say.
 */
export function aidDates(today: string): AidDate[] {
  const entry = entryYear(today);
  const award = `${entry}–${String((entry + 1) % 100).padStart(2, '0')}`;
  const opens = `${entry - 1}-10-01`;
  return [
    {
      form: 'FAFSA',
      title: `FAFSA opens (${award})`,
      date: opens,
      details: `The FAFSA for the ${award} award year opens. Many states and colleges give aid first come, first served: file early.`,
      url: 'https://studentaid.gov/h/apply-for-aid/fafsa',
    },
    {
      form: 'CSS Profile',
      title: `CSS Profile opens (${award})`,
      date: opens,
      details:
        "Many private colleges also ask for the CSS Profile. Check each college's financial aid page for its priority deadline.",
      url: 'https://cssprofile.collegeboard.org/',
    },
    {
      form: 'FAFSA',
      title: `FAFSA federal deadline (${award})`,
      date: `${entry + 1}-06-30`,
      details:
        'The last day to submit the FAFSA for this award year. State and college deadlines are much earlier.',
      url: 'https://studentaid.gov/announcements-events/fafsa-deadlines',
    },
  ];
}

/** A college deadline that is about financial aid (a CSS Profile or aid priority date), by its type. */
export function isAidDeadlineType(type: string): boolean {
  return /\bcss\b|financial aid|\baid\b|fafsa/i.test(type);
}

/**
 * When to ask for recommendations: `RECOMMENDER_LEAD_DAYS` before the college's earliest deadline that
 * is still to come; null when it has no dated deadline left.
 */
export function askByDate(
  deadlines: ReadonlyArray<{ type: string; date: string | null }>,
  today: string,
): { date: string; deadlineType: string; deadlineDate: string } | null {
  const coming = deadlines
    .filter((d): d is { type: string; date: string } => !!d.date && isIsoDay(d.date))
    .filter((d) => !isAidDeadlineType(d.type) && daysBetween(today, d.date) >= 0)
    .sort((a, b) => compareIso(a.date, b.date));
  const first = coming[0];
  if (!first) return null;
  return {
    date: addDays(first.date, -RECOMMENDER_LEAD_DAYS),
    deadlineType: first.type,
    deadlineDate: first.date,
  };
}

// ---- essays ----

/** Word-limit phrases inside a prompt: "(650 words)", "in 250 words or fewer", "max 300 words". */
const LIMIT_PHRASE =
  /(?:\b(?:maximum(?: of)?|max\.?|up to|limit(?:ed)? to|no more than|in|within|of)\s+)?\b(\d{1,2},\d{3}|\d{2,4})\s*-?\s*words?\b(?:\s+(?:or\s+(?:fewer|less)|max(?:imum)?|limit))?/gi;

/**
 * The word limit a prompt states in its text ("650 words", "in 250 words or fewer", "100–250 words" →
 * the upper figure); null when it states none.
 */
export function parseWordLimit(text: string): number | null {
  let best: number | null = null;
  for (const m of text.matchAll(LIMIT_PHRASE)) {
    const n = Number(m[1]!.replace(',', ''));
    if (n >= 25 && n <= 5000 && (best === null || n > best)) best = n;
  }
  return best;
}

/** Words that, once the figure is taken out, leave a sentence saying nothing but the word limit. */
const LIMIT_FILLER = new Set(
  'answer respond please your response essay should be must the limit is maximum max words word or fewer less a of use keep to under no more than in within up approximately about'.split(
    ' ',
  ),
);

/**
 * The key under which a student keeps one draft for a prompt: the prompt's words, ignoring case,
 * punctuation, quotes, spacing and word-limit notes. Prompts that read the same across colleges share it,
 * so one draft serves them all.
 */
export function essayPromptKey(text: string): string {
  const words = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\([^()]*\bwords?\b[^()]*\)/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => words(sentence.replace(LIMIT_PHRASE, ' ')))
    .filter((sentence) => sentence.split(' ').some((w) => w && !LIMIT_FILLER.has(w)))
    .join(' ');
}

/** Words as an essay counts them: runs of letters or digits, with apostrophes and hyphens inside. */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

const NAME_FILLER = new Set(['the', 'of', 'at', 'and', 'in', 'university', 'college', 'institute', 'school']);
const STATE_WORDS = new Set(US_STATES.map(([, name]) => normaliseCollegeName(name)));

/**
 * The names a student might use for a college: its full name and, when distinctive, its short name
 * ("Colby College" → "colby"; "University of Chicago" → "chicago"), normalised.
 */
export function collegeNameForms(name: string): string[] {
  const full = normaliseCollegeName(name);
  const rest = full.split(' ').filter((w) => !NAME_FILLER.has(w));
  const short = rest.length === 1 && rest[0]!.length >= 4 && !STATE_WORDS.has(rest[0]!) ? rest[0]! : null;
  return short && short !== full ? [full, short] : [full];
}

/**
 * The colleges among `others` that a draft names although it is for `forColleges`: a "Why Colby?" draft
 * pasted into the Bates answer. A name shared with one of the draft's own colleges does not count.
 */
export function otherCollegesNamed(
  text: string,
  forColleges: readonly string[],
  others: readonly string[],
): string[] {
  const body = ` ${normaliseCollegeName(text)} `;
  const own = new Set(forColleges.flatMap(collegeNameForms));
  const ownKeys = new Set(forColleges.map(normaliseCollegeName));
  return others.filter(
    (name) =>
      !ownKeys.has(normaliseCollegeName(name)) &&
      collegeNameForms(name).some((form) => !own.has(form) && body.includes(` ${form} `)),
  );
}
