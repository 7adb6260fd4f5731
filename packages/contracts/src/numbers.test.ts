import { describe, expect, it } from 'vitest';
import { compareIso, formatNumberEnUs, formatShortDate } from './numbers.ts';

describe('en-US numbers and dates without Intl', () => {
  it('gives the text Intl gives, for money, counts, percentages and ratios', () => {
    const values = [
      0,
      1,
      9,
      10,
      999,
      1000,
      1001,
      12345.5,
      99999.5,
      100000,
      1234567.891,
      1.005,
      2.675,
      0.285,
      4.35,
      45.125,
      8.000000000000002,
      16,
      12.5,
      33.333333,
      66.666666,
      0.5,
      1.5,
      2.5,
      -0.5,
      -4196,
      -1234.56,
      1e9 + 0.5,
    ];
    // and a spread of random figures of every size a page shows
    let seed = 7;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++)
      values.push(Number(((rand() - 0.2) * 10 ** Math.floor(rand() * 8)).toFixed(4)));
    for (const digits of [0, 1, 2]) {
      const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits });
      for (const v of values) {
        const expected = intl.format(v);
        expect(formatNumberEnUs(v, digits), `${v} with ${digits}`).toBe(expected);
      }
    }
  });

  it('reads the way the screens show it', () => {
    expect(formatNumberEnUs(30000)).toBe('30,000');
    expect(formatNumberEnUs(45.12, 2)).toBe('45.12');
    expect(formatNumberEnUs(8.000000000000002, 2)).toBe('8');
    expect(formatNumberEnUs(-273)).toBe('-273');
  });

  it('writes a short date in UTC, or in the reader’s zone', () => {
    expect(formatShortDate(new Date('2026-01-05T12:00:00Z'))).toBe('Jan 5, 2026');
    expect(formatShortDate(new Date('2026-12-31T23:59:59Z'))).toBe('Dec 31, 2026');
    const local = new Date(2027, 4, 9, 23, 30);
    expect(formatShortDate(local, { local: true })).toBe('May 9, 2027');
    expect(formatShortDate(new Date('2026-03-15T00:00:00Z'))).toBe(
      new Intl.DateTimeFormat('en-US', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      }).format(new Date('2026-03-15T00:00:00Z')),
    );
  });

  it('orders ISO dates as dates', () => {
    const dates = ['2027-01-10', '2026-11-01', '2026-11-15', '2027-01-01'];
    expect([...dates].sort(compareIso)).toEqual(['2026-11-01', '2026-11-15', '2027-01-01', '2027-01-10']);
    expect(compareIso('2026-11-01', '2026-11-01')).toBe(0);
  });
});
