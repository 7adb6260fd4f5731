/**
 * Time zones of U.S. colleges and students: the zone of a state (and, for the states that span two
 * zones, of the cities on the other side), the UTC instant of a wall-clock time in a zone, and the
 * VTIMEZONE text a calendar file carries for each zone it names.
 */

/** A zone a deadline may be due in. DST follows the U.S. rule (second Sunday of March to first of November). */
export interface ZoneInfo {
  tzid: string;
  /** What a student reads: "Eastern Time" */
  name: string;
  /** UTC offset in standard time, in hours */
  std: number;
  /** Abbreviations in standard and daylight time; `dst` null when the zone keeps standard time */
  stdAbbr: string;
  dstAbbr: string | null;
}

const Z = (tzid: string, name: string, std: number, stdAbbr: string, dstAbbr: string | null): ZoneInfo => ({
  tzid,
  name,
  std,
  stdAbbr,
  dstAbbr,
});

export const ZONES = {
  eastern: Z('America/New_York', 'Eastern Time', -5, 'EST', 'EDT'),
  central: Z('America/Chicago', 'Central Time', -6, 'CST', 'CDT'),
  mountain: Z('America/Denver', 'Mountain Time', -7, 'MST', 'MDT'),
  arizona: Z('America/Phoenix', 'Mountain Time (Arizona)', -7, 'MST', null),
  pacific: Z('America/Los_Angeles', 'Pacific Time', -8, 'PST', 'PDT'),
  alaska: Z('America/Anchorage', 'Alaska Time', -9, 'AKST', 'AKDT'),
  hawaii: Z('Pacific/Honolulu', 'Hawaii Time', -10, 'HST', null),
  atlantic: Z('America/Puerto_Rico', 'Atlantic Time', -4, 'AST', null),
  chamorro: Z('Pacific/Guam', 'Chamorro Time', 10, 'ChST', null),
  samoa: Z('Pacific/Pago_Pago', 'Samoa Time', -11, 'SST', null),
} as const satisfies Record<string, ZoneInfo>;
type ZoneKey = keyof typeof ZONES;

const STATE_ZONE: Record<string, ZoneKey> = {
  AL: 'central',
  AK: 'alaska',
  AZ: 'arizona',
  AR: 'central',
  CA: 'pacific',
  CO: 'mountain',
  CT: 'eastern',
  DE: 'eastern',
  DC: 'eastern',
  FL: 'eastern',
  GA: 'eastern',
  HI: 'hawaii',
  ID: 'mountain',
  IL: 'central',
  IN: 'eastern',
  IA: 'central',
  KS: 'central',
  KY: 'eastern',
  LA: 'central',
  ME: 'eastern',
  MD: 'eastern',
  MA: 'eastern',
  MI: 'eastern',
  MN: 'central',
  MS: 'central',
  MO: 'central',
  MT: 'mountain',
  NE: 'central',
  NV: 'pacific',
  NH: 'eastern',
  NJ: 'eastern',
  NM: 'mountain',
  NY: 'eastern',
  NC: 'eastern',
  ND: 'central',
  OH: 'eastern',
  OK: 'central',
  OR: 'pacific',
  PA: 'eastern',
  RI: 'eastern',
  SC: 'eastern',
  SD: 'central',
  TN: 'central',
  TX: 'central',
  UT: 'mountain',
  VT: 'eastern',
  VA: 'eastern',
  WA: 'pacific',
  WV: 'eastern',
  WI: 'central',
  WY: 'mountain',
  PR: 'atlantic',
  VI: 'atlantic',
  GU: 'chamorro',
  MP: 'chamorro',
  AS: 'samoa',
};

/** Cities of the states that span two zones, on the side other than the state's own (lower-case). */
const CITY_ZONE: Record<string, Record<string, ZoneKey>> = {
  FL: Object.fromEntries(
    ['pensacola', 'panama city', 'fort walton beach', 'niceville', 'marianna', 'crestview', 'destin'].map(
      (c) => [c, 'central' as const],
    ),
  ),
  TN: Object.fromEntries(
    [
      'knoxville',
      'chattanooga',
      'johnson city',
      'kingsport',
      'bristol',
      'cleveland',
      'morristown',
      'jefferson city',
      'greeneville',
      'harrogate',
      'maryville',
      'sewanee',
      'athens',
      'collegedale',
      'tusculum',
      'elizabethton',
      'oak ridge',
    ].map((c) => [c, 'eastern' as const]),
  ),
  KY: Object.fromEntries(
    ['bowling green', 'paducah', 'murray', 'owensboro', 'hopkinsville', 'madisonville', 'russellville'].map(
      (c) => [c, 'central' as const],
    ),
  ),
  IN: Object.fromEntries(
    ['evansville', 'gary', 'hammond', 'valparaiso', 'merrillville', 'vincennes', 'oakland city'].map((c) => [
      c,
      'central' as const,
    ]),
  ),
  MI: Object.fromEntries(['menominee', 'iron mountain', 'ironwood'].map((c) => [c, 'central' as const])),
  TX: Object.fromEntries(['el paso'].map((c) => [c, 'mountain' as const])),
  ID: Object.fromEntries(
    ['moscow', 'lewiston', "coeur d'alene", 'coeur d alene', 'sandpoint'].map((c) => [c, 'pacific' as const]),
  ),
  OR: Object.fromEntries(['ontario'].map((c) => [c, 'mountain' as const])),
  ND: Object.fromEntries(['dickinson', 'williston'].map((c) => [c, 'mountain' as const])),
  SD: Object.fromEntries(['rapid city', 'spearfish'].map((c) => [c, 'mountain' as const])),
  NE: Object.fromEntries(['scottsbluff', 'chadron', 'sidney'].map((c) => [c, 'mountain' as const])),
  KS: Object.fromEntries(['goodland'].map((c) => [c, 'mountain' as const])),
};

/** The zone of a place in the U.S. by its state code (and city); null when the state is not known. */
export function zoneOf(state: string | null | undefined, city?: string | null): ZoneInfo | null {
  const st = state?.trim().toUpperCase();
  if (!st) return null;
  const byCity = city ? CITY_ZONE[st]?.[city.trim().toLowerCase()] : undefined;
  const key = byCity ?? STATE_ZONE[st];
  return key ? ZONES[key] : null;
}

/** The zone of a tzid this module knows. */
export function zoneById(tzid: string): ZoneInfo | null {
  return Object.values(ZONES).find((z) => z.tzid === tzid) ?? null;
}

/** The nth (1-based) Sunday of a month, as a day of the month. */
function nthSunday(year: number, month: number, n: number): number {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((7 - first) % 7) + (n - 1) * 7;
}

/** The UTC offset (hours) of a zone at a wall-clock time there, by the U.S. DST rule. */
function offsetAt(z: ZoneInfo, y: number, m: number, d: number, hour: number): number {
  if (!z.dstAbbr) return z.std;
  const start = nthSunday(y, 3, 2);
  const end = nthSunday(y, 11, 1);
  const afterStart = m > 3 || (m === 3 && (d > start || (d === start && hour >= 2)));
  const beforeEnd = m < 11 || (m === 11 && (d < end || (d === end && hour < 2)));
  return afterStart && beforeEnd ? z.std + 1 : z.std;
}

/** The UTC instant of a wall-clock time (YYYY-MM-DD, hour, minute) in a zone, as an ISO string. */
export function wallTimeToUtc(z: ZoneInfo, date: string, hour: number, minute: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const offset = offsetAt(z, y, m, d, hour);
  return new Date(Date.UTC(y, m - 1, d, hour - offset, minute)).toISOString();
}

/** The abbreviation in force on a day (at 11:59 pm): "EST", "PDT". */
export function zoneAbbr(z: ZoneInfo, date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return offsetAt(z, y, m, d, 23) !== z.std ? z.dstAbbr! : z.stdAbbr;
}

const hhmm = (h: number) => `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}00`;

/** RFC 5545 VTIMEZONE lines of a zone: the U.S. rule since 2007, or standard time only. */
export function vtimezone(z: ZoneInfo): string[] {
  const lines = ['BEGIN:VTIMEZONE', `TZID:${z.tzid}`];
  if (!z.dstAbbr) {
    lines.push(
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `TZOFFSETFROM:${hhmm(z.std)}`,
      `TZOFFSETTO:${hhmm(z.std)}`,
      `TZNAME:${z.stdAbbr}`,
      'END:STANDARD',
    );
  } else {
    lines.push(
      'BEGIN:DAYLIGHT',
      'DTSTART:20070311T020000',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
      `TZOFFSETFROM:${hhmm(z.std)}`,
      `TZOFFSETTO:${hhmm(z.std + 1)}`,
      `TZNAME:${z.dstAbbr}`,
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20071104T020000',
      'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
      `TZOFFSETFROM:${hhmm(z.std + 1)}`,
      `TZOFFSETTO:${hhmm(z.std)}`,
      `TZNAME:${z.stdAbbr}`,
      'END:STANDARD',
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}
