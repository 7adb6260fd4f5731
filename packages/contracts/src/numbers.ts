/**
 * Numbers and dates as en-US text without `Intl`. The first `Intl.NumberFormat` a page builds loads ICU's
 * number data: about 40 ms of main thread on a laptop and 160 ms on Lighthouse's slowed phone, before any
 * figure shows. These give the same text as `Intl.NumberFormat('en-US', { maximumFractionDigits })` and
 * the short `Intl.DateTimeFormat` for every value the product shows.
 */

/** Thousands separators on a digit string: "1234567" → "1,234,567". */
function group(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/**
 * A number with thousands separators and at most `maxFraction` decimals, trailing zeros dropped:
 * 12345.678 → "12,346" (0), "12,345.68" (2). As Intl does, it rounds the number's shortest decimal form
 * (4.35, not the binary 4.34999…), halves away from zero: 4.35 → "4.4" with one decimal.
 */
export function formatNumberEnUs(v: number, maxFraction = 0): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  // String() is the shortest decimal form; below 1e-6 it has an exponent, and such a value shows as 0.
  const plain = abs < 1e-6 ? '0' : abs >= 1e21 ? abs.toFixed(0) : String(abs);
  const [int, frac = ''] = plain.split('.') as [string, string?];
  let digits = int + frac.slice(0, maxFraction).padEnd(maxFraction, '0');
  if ((frac[maxFraction] ?? '0') >= '5')
    digits = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  const whole = digits.slice(0, digits.length - maxFraction) || '0';
  const decimals = digits.slice(digits.length - maxFraction).replace(/0+$/, '');
  return `${v < 0 ? '-' : ''}${group(whole)}${decimals ? `.${decimals}` : ''}`;
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An instant as a short date, "Jan 5, 2026": in UTC, or in the reader's own time zone with `local`. */
export function formatShortDate(d: Date, { local = false }: { local?: boolean } = {}): string {
  const [y, m, day] = local
    ? [d.getFullYear(), d.getMonth(), d.getDate()]
    : [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  return `${SHORT_MONTHS[m]} ${day}, ${y}`;
}

/** Orders ISO dates (or any ASCII keys) by code point: what `localeCompare` gives them, without ICU. */
export function compareIso(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
