/**
 * The one answer to "what is this college's next deadline, for this student's cycle and plan?", and the
 * student's whole list of dated deadlines built from it. The overview, the checklist, recommenders, Coming
 * up, the calendar, the downloaded file, the live feed and the reminders job all read it.
 *
 * - A date published for the student's cycle wins. When only the previous cycle's date is known, it is
 *   projected one year on and labelled so; older dates are dropped.
 * - The application's plan prunes the other plans' application deadlines (the card keeps every plan);
 *   once submitted, the application deadline leaves the list. Financial-aid dates stay.
 * - A deadline is due at 11:59 pm: the student's own time for the Common App, else the college's zone.
 */
import {
  addDays,
  aidDates,
  daysBetween,
  entryYear,
  isIsoDay,
  localToday,
  planOfDeadline,
  REMINDER_DAYS,
  seasonDates,
  type ApplicationPlan,
  type College,
} from '@ct/contracts';
import { cssProfileRequired } from '@ct/contracts/fit';
import { datedDeadlines, isDeadlineItem } from '../checklist.ts';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentApplication } from '../presenters.ts';
import type { UserCollegeRow } from '../repositories/colleges.ts';
import type { ApplicationRow } from '../repositories/season.ts';
import type {
  Cycle,
  DeadlineKind,
  DueMoment,
  ResolvedDeadline,
  StudentDeadline,
  StudentDeadlines,
} from './types.ts';
import { wallTimeToUtc, ZONES, zoneOf, type ZoneInfo } from './zones.ts';

export type * from './types.ts';

// ---- the cycle ----

/** The cycle of a student entering college in the fall of `enteringYear`. */
export function cycleOf(enteringYear: number): Cycle {
  return {
    enteringYear,
    from: `${enteringYear - 1}-08-01`,
    to: `${enteringYear}-07-31`,
    label: `${enteringYear - 1}-${String(enteringYear % 100).padStart(2, '0')}`,
  };
}

/**
 * The entering year a student gets when they chose none: the cycle whose deadlines are mostly ahead on
 * `today` (from July on, next fall's: its deadlines run from November to March).
 */
export const defaultEnteringYear = (today: string) => entryYear(today);

// ---- one college ----

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** "January 1, 2027" */
export function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** The same month and day one year on (February 29 becomes February 28). */
function oneYearOn(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = `${y + 1}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return isIsoDay(next) ? next : `${y + 1}-${String(m).padStart(2, '0')}-28`;
}

/** What kind of date a deadline is, by its type. */
export function kindOf(type: string): DeadlineKind {
  if (/\bcss\b/i.test(type)) return 'css-profile';
  if (/fafsa/i.test(type)) return 'fafsa';
  if (/priority|merit|scholarship|financial aid|\baid\b/i.test(type)) return 'priority-merit';
  if (/interview/i.test(type)) return 'interview';
  if (/\breply\b|may 1\b/i.test(type)) return 'reply';
  if (/deposit/i.test(type)) return 'deposit';
  if (/housing/i.test(type)) return 'housing';
  if (planOfDeadline(type) !== null || /application (filing )?deadline|filing deadline/i.test(type))
    return 'application';
  return 'other';
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
/** How a college's estimated date is known again on the student's checklist: its type and day. */
const estimateKey = (type: string, date: string) => `${norm(type)}\u0000${date}`;

/**
 * Every deadline of a college for the student's cycle: this cycle's published dates, and last cycle's
 * dates projected one year on where this cycle's date of that type is not known. Older dates, and dates
 * of a later cycle, are left out; undated (rolling) plans stay, with no date.
 */
export function resolveCollegeDeadlines(
  deadlines: ReadonlyArray<{ type: string; date: string | null }>,
  cycle: Cycle,
  estimated: ReadonlySet<string> = new Set(),
): ResolvedDeadline[] {
  const prevFrom = `${cycle.enteringYear - 2}-08-01`;
  const published = new Set<string>();
  for (const d of deadlines)
    if (d.date && isIsoDay(d.date) && d.date >= cycle.from && d.date <= cycle.to) published.add(norm(d.type));
  const out: ResolvedDeadline[] = [];
  const seen = new Set<string>();
  for (const d of deadlines) {
    const type = d.type.trim();
    if (!type) continue;
    const base = { type, kind: kindOf(type), plan: planOfDeadline(type) };
    let item: ResolvedDeadline | null = null;
    if (d.date === null) {
      item = { ...base, date: null, projected: false, projectedFrom: null, label: UD_MSG.deadlineUndated };
    } else if (!isIsoDay(d.date)) {
      continue;
    } else if (d.date >= cycle.from && d.date <= cycle.to && estimated.has(estimateKey(type, d.date))) {
      // Placed in this cycle by the college's yearly rule: not published yet, so labelled like a projection.
      item = {
        ...base,
        date: d.date,
        projected: true,
        projectedFrom: null,
        label: UD_MSG.expectedYearly(longDate(d.date)),
      };
    } else if (d.date >= cycle.from && d.date <= cycle.to) {
      item = { ...base, date: d.date, projected: false, projectedFrom: null, label: longDate(d.date) };
    } else if (d.date >= prevFrom && d.date < cycle.from && !published.has(norm(type))) {
      const date = oneYearOn(d.date);
      item = {
        ...base,
        date,
        projected: true,
        projectedFrom: d.date,
        label: UD_MSG.expected(longDate(date)),
      };
    }
    if (!item) continue;
    const key = `${norm(type)}\u0000${item.date ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out.sort((a, b) => (a.date ?? '9999').localeCompare(b.date ?? '9999'));
}

/** Statuses before the application is sent: only then do its application deadlines still ring. */
const BEFORE_SUBMISSION = new Set(['researching', 'applying']);

/**
 * Whether a college deadline applies to the student's application: with a plan chosen, the other plans'
 * application deadlines do not; once submitted, no application deadline does. Every other kind stays.
 */
export function applies(
  d: Pick<ResolvedDeadline, 'kind' | 'plan'>,
  app: { plan: ApplicationPlan | null; status: string },
): boolean {
  if (d.kind !== 'application') return true;
  if (!BEFORE_SUBMISSION.has(app.status)) return false;
  if (app.plan && d.plan && d.plan !== app.plan) return false;
  return true;
}

// ---- where and when a deadline is due ----

/** What the deadlines need of a college beyond its checklist: where it is, its application system, its source. */
export interface CollegeFacts {
  state: string | null;
  city: string | null;
  commonApp: boolean;
  /** The page the college's deadlines come from (the section's source) */
  sourceUrl: string | null;
  /**
   * The page of each dated deadline that comes from another source than the section's (a this-cycle date
   * an AI answer read beside the Common App grid's, `info.deadlines.<i>`), by `estimateKey`: each date
   * names the page that states it (issue 44).
   */
  sourceOf: ReadonlyMap<string, string>;
  /**
   * The college's dated deadlines that carry a note (by the contract, not a date published for this
   * cycle: one placed by a yearly rule, or last cycle's), by `estimateKey`.
   */
  estimated: ReadonlySet<string>;
  /** Whether the college asks for the CSS Profile (College Board's list, by Scorecard id). */
  cssProfile: boolean;
}

export function factsOf(college: College | null, scorecardId: number | null = null): CollegeFacts {
  const cssProfile = cssProfileRequired(college?.scorecardId ?? scorecardId) === true;
  if (!college)
    return {
      state: null,
      city: null,
      commonApp: false,
      sourceUrl: null,
      sourceOf: new Map(),
      estimated: new Set(),
      cssProfile,
    };
  const src = college.sources['info.deadlines'];
  return {
    state: college.demographics.schoolState ?? null,
    city: college.demographics.schoolCity ?? null,
    commonApp: !!src && /common ?app/i.test(`${src.title ?? ''} ${src.url}`),
    sourceUrl: src?.url ?? null,
    sourceOf: new Map(
      college.info.deadlines.flatMap((d, i) => {
        const own = college.sources[`info.deadlines.${i}`];
        return own && d.date ? [[estimateKey(d.type, d.date), own.url] as const] : [];
      }),
    ),
    estimated: new Set(
      college.info.deadlines.flatMap((d) => (d.note && d.date ? [estimateKey(d.type, d.date)] : [])),
    ),
    cssProfile,
  };
}

/**
 * 11:59 pm on the day: the student's own time for a Common App college (else the college's zone), the
 * college's zone otherwise, Eastern Time when neither is known (said so).
 */
export function dueMoment(
  date: string,
  facts: Pick<CollegeFacts, 'state' | 'city' | 'commonApp'>,
  studentZone: ZoneInfo | null,
): DueMoment {
  const college = zoneOf(facts.state, facts.city);
  let zone: ZoneInfo;
  let basis: DueMoment['basis'];
  if (facts.commonApp && studentZone) [zone, basis] = [studentZone, 'student'];
  else if (college) [zone, basis] = [college, 'college'];
  else if (studentZone) [zone, basis] = [studentZone, 'student'];
  else [zone, basis] = [ZONES.eastern, 'assumed'];
  return { at: wallTimeToUtc(zone, date, 23, 59), zone: zone.tzid, zoneName: zone.name, basis };
}

// ---- the student's list ----

/** Facts of a college document, kept a few minutes: every view of the list asks for the same few colleges. */
const FACTS_TTL_MS = 5 * 60_000;
const FACTS_MAX = 5000;
const factsCache = new Map<string, { at: number; facts: CollegeFacts }>();

async function collegeFacts(deps: Deps, row: UserCollegeRow): Promise<CollegeFacts> {
  const key = `${row.college_key}\u0000${row.scorecard_id ?? ''}`;
  const hit = factsCache.get(key);
  if (hit && Date.now() - hit.at < FACTS_TTL_MS) return hit.facts;
  let facts: CollegeFacts;
  try {
    facts = factsOf(await deps.fetchCollege(row.college_name, null, row.scorecard_id), row.scorecard_id);
  } catch (err) {
    deps.ctx.log.warn({ err }, 'college facts for deadlines not read; zone from the student');
    return factsOf(null, row.scorecard_id);
  }
  if (factsCache.size >= FACTS_MAX) factsCache.delete(factsCache.keys().next().value!);
  factsCache.set(key, { at: Date.now(), facts });
  return facts;
}

/** The student's settings for deadlines, with their defaults. */
export function deadlineSettings(
  settings: { entering_year: number | null; reminder_days: number[] | null } | null,
  homeState: string | null,
  today: string,
): { cycle: Cycle; reminderDays: number[]; studentZone: ZoneInfo | null; chosen: boolean } {
  const year = settings?.entering_year ?? defaultEnteringYear(today);
  const days = settings?.reminder_days?.length ? settings.reminder_days : [...REMINDER_DAYS];
  return {
    cycle: cycleOf(year),
    reminderDays: [...new Set(days)].sort((a, b) => b - a),
    studentZone: zoneOf(homeState),
    chosen: settings?.entering_year != null,
  };
}

/** A checklist's deadline items, undated ones included (the card lists rolling plans too). */
function checklistDeadlines(row: UserCollegeRow): Array<{ type: string; date: string | null }> {
  const dated = new Set(datedDeadlines(row.checklist).map((d) => `${d.type}\u0000${d.date}`));
  return Object.values(row.checklist)
    .flat()
    .filter(isDeadlineItem)
    .map((d) => ({
      type: d.type,
      date: typeof d.date === 'string' && dated.has(`${d.type}\u0000${d.date}`) ? d.date : null,
    }));
}

/**
 * One college's deadlines for a student: every plan for the card, the applicable dated items, and the
 * next applicable one still ahead on `today` (application's season dates included).
 */
export function collegeDeadlines(
  row: UserCollegeRow,
  appRow: ApplicationRow | null,
  facts: CollegeFacts,
  settings: { cycle: Cycle; studentZone: ZoneInfo | null },
  today: string,
): { all: ResolvedDeadline[]; items: StudentDeadline[]; next: StudentDeadline | null } {
  const { cycle, studentZone } = settings;
  const app = presentApplication(appRow);
  const all = resolveCollegeDeadlines(checklistDeadlines(row), cycle, facts.estimated);
  const items: StudentDeadline[] = [];
  const base = {
    collegeName: row.college_name,
    collegeKey: row.college_key,
    sourceUrl: facts.sourceUrl,
    details: null,
    noteId: null,
  };
  for (const d of all) {
    if (!d.date || !applies(d, app)) continue;
    items.push({
      ...base,
      origin: 'college',
      type: d.type,
      kind: d.kind,
      plan: d.plan,
      date: d.date,
      sourceUrl: facts.sourceOf.get(estimateKey(d.type, d.projectedFrom ?? d.date)) ?? facts.sourceUrl,
      projected: d.projected,
      projectedFrom: d.projectedFrom,
      label: d.label,
      due:
        d.kind === 'other' ? null : dueMoment(d.date, facts, d.kind === 'application' ? studentZone : null),
    });
  }
  for (const s of seasonDates(app, today)) {
    if (s.date < cycle.from) continue;
    const kind = kindOf(s.type);
    const due = kind === 'reply' || kind === 'deposit' || kind === 'housing';
    items.push({
      ...base,
      origin: 'season',
      type: s.type,
      kind: due ? kind : /decision/i.test(s.type) ? 'decision' : 'other',
      plan: null,
      date: s.date,
      projected: false,
      projectedFrom: null,
      label: longDate(s.date),
      sourceUrl: null,
      due: due ? dueMoment(s.date, facts, null) : null,
    });
  }
  items.sort((a, b) => a.date.localeCompare(b.date));
  const next =
    items.find(
      (i) =>
        daysBetween(today, i.date) >= 0 &&
        i.type !== 'Application submitted' &&
        i.type !== 'Decision received',
    ) ?? null;
  return { all, items, next };
}

/**
 * The student's cycle-wide dates: FAFSA and CSS Profile openings, the FAFSA federal deadline, May 1. The
 * CSS Profile opening names the colleges on the list known to ask for it (`cssColleges`, College Board's
 * list as shipped); that list is partial, so the date shows for every list.
 */
function cycleDates(cycle: Cycle, cssColleges: readonly string[]): StudentDeadline[] {
  const base = {
    origin: 'aid' as const,
    collegeName: null,
    collegeKey: null,
    plan: null,
    projected: false,
    projectedFrom: null,
    noteId: null,
    due: null,
  };
  // aidDates places its dates in the cycle of its "today": any day of the cycle's first month will do.
  const aid: StudentDeadline[] = aidDates(`${cycle.from.slice(0, 4)}-08-15`).map((a) => ({
    ...base,
    type: a.title,
    kind: a.form === 'FAFSA' ? ('fafsa' as const) : ('css-profile' as const),
    date: a.date,
    label: longDate(a.date),
    sourceUrl: a.url,
    details: a.form !== 'FAFSA' && cssColleges.length ? UD_MSG.cssProfileFor(cssColleges) : a.details,
  }));
  const reply = `${cycle.enteringYear}-05-01`;
  return [
    ...aid,
    {
      ...base,
      type: UD_MSG.replyDateTitle,
      kind: 'reply',
      date: reply,
      label: longDate(reply),
      sourceUrl: 'https://www.nacacnet.org/',
      details: UD_MSG.replyDateDetails,
    },
  ];
}

/**
 * A student's deadlines for their cycle, as every view shows them: the applicable dates of each college
 * (projected where only last cycle's is known), the dates that follow each application, the cycle's
 * financial-aid and reply dates (once a college is on the list), and the student's own dated notes (kept
 * whatever their date). Nothing else from before the cycle. `now`: the clock (tests inject one).
 */
export async function studentDeadlines(
  deps: Deps,
  uid: string,
  now: Date = deps.now(),
): Promise<StudentDeadlines> {
  const today = localToday(now);
  const [rows, notes, apps, profile, chosen] = await Promise.all([
    deps.colleges.listColleges(uid),
    deps.notes.listNotes(uid),
    deps.season.listApplications(uid),
    deps.profiles.getProfile(uid),
    deps.profiles.getDeadlineSettings(uid),
  ]);
  const settings = deadlineSettings(chosen, profile?.home_state ?? null, today);
  const appOf = new Map(apps.map((a) => [a.college_key, a]));
  const facts = await Promise.all(rows.map((r) => collegeFacts(deps, r)));
  const items: StudentDeadline[] = [];
  const colleges: StudentDeadlines['colleges'] = new Map();
  rows.forEach((row, i) => {
    const c = collegeDeadlines(row, appOf.get(row.college_key) ?? null, facts[i]!, settings, today);
    items.push(...c.items);
    colleges.set(row.college_key, c);
  });
  const cssColleges = rows.filter((_, i) => facts[i]!.cssProfile).map((r) => r.college_name);
  if (rows.length) items.push(...cycleDates(settings.cycle, cssColleges));
  for (const n of notes)
    if (n.deadline)
      items.push({
        origin: 'note',
        collegeName: null,
        collegeKey: null,
        type: n.title,
        kind: 'note',
        plan: null,
        date: n.deadline,
        projected: false,
        projectedFrom: null,
        label: longDate(n.deadline),
        sourceUrl: null,
        due: null,
        details: n.content,
        noteId: n.id,
      });
  items.sort((a, b) => a.date.localeCompare(b.date));
  return { today, cycle: settings.cycle, reminderDays: settings.reminderDays, items, colleges };
}

/**
 * For the reminders job: one student's applicable deadlines still ahead (today included), soonest first,
 * each with its kind and, for a deadline due at a time, its due moment (UTC instant and zone). Items
 * without `due` (a note, an opening date) are whole days. The reminder lead times are the student's.
 */
export async function upcomingDeadlines(
  deps: Deps,
  uid: string,
  now: Date = deps.now(),
): Promise<{ today: string; reminderDays: number[]; items: StudentDeadline[] }> {
  const all = await studentDeadlines(deps, uid, now);
  const items = all.items.filter(
    (i) =>
      daysBetween(all.today, i.date) >= 0 &&
      (i.due === null || Date.parse(i.due.at) >= now.getTime()) &&
      i.type !== 'Application submitted' &&
      i.type !== 'Decision received',
  );
  return { today: all.today, reminderDays: all.reminderDays, items };
}

/** The day a reminder `days` before `date` falls on. */
export const reminderDay = (date: string, days: number) => addDays(date, -days);
