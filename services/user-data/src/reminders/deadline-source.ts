import { planOfDeadline } from '@ct/contracts';
import { datedDeadlines } from '../checklist.ts';
import type { Deps } from '../deps.ts';

/** One deadline a reminder may be sent for. */
export interface UpcomingDeadline {
  collegeName: string;
  /** The kind of deadline, as the college names it ("Early Action"). */
  kind: string;
  /** The calendar date it falls on, where it is due (YYYY-MM-DD). */
  date: string;
  /** The moment it is due (UTC instant). */
  dueAt: Date;
  /** The time zone it is due in. */
  zone: string;
}

/** Until the deadlines say where they are due: 11:59 pm US Eastern, how most applications close. */
const DEFAULT_ZONE = 'America/New_York';
const DEFAULT_DUE_TIME = '23:59';

/** Statuses after which no application deadline of the college applies. */
const PAST_APPLYING = new Set([
  'submitted',
  'admitted',
  'admitted-with-aid',
  'deferred',
  'waitlisted',
  'denied',
  'withdrawn',
  'enrolled',
  'declined',
]);

/** The UTC instant of a local date and time in a zone. */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const offsetAt = (t: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(new Date(t));
    const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute')) - t;
  };
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}

/**
 * THE one place the reminder job gets a student's deadlines: the applicable upcoming dated deadlines of
 * the colleges on their list, a plan's other deadlines left out, and none for a college whose application
 * is submitted (or decided). Built today on the code behind get-deadlines (the checklists' dated items and
 * the season's applications); the deadlines work (services/user-data/src/deadlines/next-deadlines.ts)
 * replaces the body of this function with its own when it lands.
 */
export async function upcomingDeadlines(deps: Deps, uid: string, now: Date): Promise<UpcomingDeadline[]> {
  const [colleges, apps] = await Promise.all([
    deps.colleges.listColleges(uid),
    deps.season.listApplications(uid),
  ]);
  const appOf = new Map(apps.map((a) => [a.college_key, a]));
  const out: UpcomingDeadline[] = [];
  for (const c of colleges) {
    const app = appOf.get(c.college_key);
    if (app && PAST_APPLYING.has(app.status)) continue;
    for (const d of datedDeadlines(c.checklist)) {
      const plan = planOfDeadline(d.type);
      if (app?.plan && plan && plan !== app.plan) continue;
      const dueAt = zonedInstant(d.date, DEFAULT_DUE_TIME, DEFAULT_ZONE);
      if (dueAt <= now) continue;
      out.push({ collegeName: c.college_name, kind: d.type, date: d.date, dueAt, zone: DEFAULT_ZONE });
    }
  }
  return out;
}
