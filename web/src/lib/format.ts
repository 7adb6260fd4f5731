/**
 * Display rules for college figures (spec section 5): a missing value reads "No Info Found", rates and
 * demographic fractions are shown ×100 with a percent sign (two decimals in compare), money has a dollar
 * prefix and the student-faculty ratio reads N:1. Shared by the search, compare and dashboard screens.
 */
import { MSG } from '@ct/contracts/messages';
import { formatNumberEnUs, formatShortDate } from '@ct/contracts/numbers';

export const NO_INFO = MSG.noInfoFound;

/** How a figure is shown: the kinds of `COMPARE_METRICS`, plus plain text. */
export type ValueKind = 'count' | 'percent' | 'money' | 'ratio' | 'text';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** True when there is nothing to show: null, undefined, NaN, an empty or blank string, an empty list. */
export function isMissing(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'number') return !Number.isFinite(v);
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

/** A whole number with thousands separators: 12345.6 → "12,346". */
export const formatWhole = (v: number): string => formatNumberEnUs(v);

/** A fraction 0..1 as a percentage: 0.4512 → "45.12%"; with `decimals` always that many (compare: 2). */
export function formatPercent(v: number | null | undefined, decimals?: number): string {
  if (!isNum(v)) return NO_INFO;
  const pct = v * 100;
  if (decimals !== undefined) return `${pct.toFixed(decimals)}%`;
  return `${formatNumberEnUs(pct, 2)}%`;
}

/** Whole dollars with a dollar prefix and thousands separators ("-$273" for a negative amount). */
export function formatMoney(v: number | null | undefined): string {
  if (!isNum(v)) return NO_INFO;
  const abs = formatNumberEnUs(Math.abs(v));
  return `${v < 0 ? '-' : ''}$${abs}`;
}

/**
 * A net price. The government data gives a negative one when grants exceed the cost of attendance: that
 * reads "$0: grants exceed the cost by $4,196", never "-$4,196".
 */
export function formatNetPrice(v: number | null | undefined): string {
  if (!isNum(v)) return NO_INFO;
  if (v < 0) return `$0: grants exceed the cost by ${formatMoney(-v)}`;
  return formatMoney(v);
}

/** The student-faculty ratio as "N:1". */
export function formatRatio(v: number | null | undefined): string {
  if (!isNum(v)) return NO_INFO;
  return `${formatNumberEnUs(v, 1)}:1`;
}

/** A head count with thousands separators. */
export function formatCount(v: number | null | undefined): string {
  if (!isNum(v)) return NO_INFO;
  return formatNumberEnUs(v);
}

/** Any text value, or "No Info Found". */
export function formatText(v: string | number | null | undefined): string {
  if (isMissing(v)) return NO_INFO;
  return String(v).trim();
}

/** Formats a value by kind; `decimals` applies to percentages (compare shows two). */
export function formatValue(kind: ValueKind, v: unknown, opts: { decimals?: number } = {}): string {
  switch (kind) {
    case 'percent':
      return formatPercent(isNum(v) ? v : null, opts.decimals);
    case 'money':
      return formatMoney(isNum(v) ? v : null);
    case 'ratio':
      return formatRatio(isNum(v) ? v : null);
    case 'count':
      return formatCount(isNum(v) ? v : null);
    default:
      return formatText(typeof v === 'string' || typeof v === 'number' ? v : null);
  }
}

/**
 * "Students with grants or loans" is listed as a count, but the government data gives it as a share of
 * students (0..1); a share is shown as a percentage so 0.6 never reads as "1".
 */
export function grantsOrLoansKind(v: number | null | undefined): ValueKind {
  return isNum(v) && v >= 0 && v <= 1 ? 'percent' : 'count';
}

/** Reads a dotted path ("finance.costAttendance") from an object. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * A link that is safe to put in an href: http(s) only, with a scheme added to bare hosts
 * ("admission.gatech.edu/npc" → "https://admission.gatech.edu/npc"); anything else (javascript:, data:) is null.
 * Gathered links come from the web, so they are never trusted as they are.
 */
export function safeUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.trim();
  if (!s) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s.replace(/^\/+/, '')}`;
  try {
    const u = new URL(withScheme);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    // A provider key must never be shown, even if a source URL was stored with one. Only then is the query
    // rewritten: URLSearchParams would turn "?166683" into "?166683=".
    const secret = ['api_key', 'apikey', 'key'].filter((k) => u.searchParams.has(k));
    if (!secret.length) return u.toString();
    for (const k of secret) u.searchParams.delete(k);
    return u.toString();
  } catch {
    return null;
  }
}

/** The readable part of a link: host plus path, without the scheme or a trailing slash. */
export function linkLabel(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
    return `${u.host.replace(/^www\./, '')}${path}`;
  } catch {
    return url;
  }
}

/** Path segments that name no page of their own. */
const EMPTY_SEGMENT = /^(index|default|home|main|en|en-us|us|www|page|pages)$/i;

/**
 * A link as words a student reads instead of an address: the last meaningful part of its path and the
 * site ("https://www.colby.edu/admission/apply-now/" → "Apply now at colby.edu"), or the site alone.
 * Long addresses never reach the screen, so they cannot widen it.
 */
export function linkWords(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url.length > 40 ? `${url.slice(0, 39)}…` : url;
  }
  const labels = u.hostname.replace(/^www\./, '').split('.');
  // The site a student recognises: "financialaid.stanford.edu" → "stanford.edu" (two-letter country
  // domains keep one more label: "ox.ac.uk").
  const keep = labels.length > 2 && labels[labels.length - 1]!.length === 2 ? 3 : 2;
  const site = labels.slice(-keep).join('.');
  const segments = u.pathname
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .map((s) => s.replace(/\.[a-z0-9]{2,5}$/i, ''))
    .filter((s) => s && !EMPTY_SEGMENT.test(s));
  for (let i = segments.length - 1; i >= 0; i--) {
    const words = segments[i]!.replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[-_+.~]+/g, ' ')
      .trim();
    // A code or an identifier ("npc_2020", "a1b2c3", "12345") says nothing: try the part before it.
    if (!/[a-z]{3}/i.test(words) || /\d{3,}/.test(words) || words.length > 40) continue;
    const text = words.toLowerCase();
    return `${text[0]!.toUpperCase()}${text.slice(1)} at ${site}`;
  }
  return site;
}

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

/** A calendar date "2026-11-01" as "November 1, 2026" (no time zone shift); other text is shown as given. */
export function formatCalendarDate(v: string | null | undefined): string {
  if (isMissing(v)) return NO_INFO;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v!.trim());
  if (!m) return v!.trim();
  const month = MONTHS[Number(m[2]) - 1];
  if (!month) return v!.trim();
  return `${month} ${Number(m[3])}, ${m[1]}`;
}

/** An instant (ISO date-time) as a short date, e.g. "Jan 5, 2026". */
export function formatGatheredDate(iso: string | null | undefined): string {
  if (!iso) return NO_INFO;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return formatShortDate(d);
}
