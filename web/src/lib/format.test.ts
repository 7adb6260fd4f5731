import { describe, expect, it } from 'vitest';
import {
  formatCalendarDate,
  formatCount,
  formatMoney,
  formatNetPrice,
  formatPercent,
  formatRatio,
  formatText,
  formatValue,
  grantsOrLoansKind,
  getPath,
  linkWords,
  safeUrl,
} from './format';

describe('display rules', () => {
  it('shows "No Info Found" for every kind of missing value', () => {
    for (const v of [null, undefined, Number.NaN]) {
      expect(formatPercent(v)).toBe('No Info Found');
      expect(formatMoney(v)).toBe('No Info Found');
      expect(formatRatio(v)).toBe('No Info Found');
      expect(formatCount(v)).toBe('No Info Found');
    }
    expect(formatText('   ')).toBe('No Info Found');
    expect(formatText(null)).toBe('No Info Found');
    expect(formatValue('money', 'not a number')).toBe('No Info Found');
  });

  it('multiplies fractions by 100 with a percent sign; two decimals in compare', () => {
    expect(formatPercent(0.4512)).toBe('45.12%');
    expect(formatPercent(0.08)).toBe('8%'); // never 8.000000000000002%
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.45, 2)).toBe('45.00%');
    expect(formatPercent(0.04123, 2)).toBe('4.12%');
    expect(formatValue('percent', 1, { decimals: 2 })).toBe('100.00%');
  });

  it('prefixes money with $ (negative net prices too) and shows the ratio as N:1', () => {
    expect(formatMoney(30000)).toBe('$30,000');
    expect(formatMoney(-273)).toBe('-$273');
    expect(formatMoney(0)).toBe('$0');
    expect(formatRatio(16)).toBe('16:1');
    expect(formatRatio(12.5)).toBe('12.5:1');
    expect(formatCount(31000)).toBe('31,000');
  });

  it('says a negative net price as grants exceeding the cost', () => {
    expect(formatNetPrice(-4196)).toBe('$0: grants exceed the cost by $4,196');
    expect(formatNetPrice(0)).toBe('$0');
    expect(formatNetPrice(12500)).toBe('$12,500');
    expect(formatNetPrice(null)).toBe('No Info Found');
  });

  it('reads links as words, never as long addresses', () => {
    expect(
      linkWords(
        'https://financialaid.stanford.edu/undergrad/how/calculator/index.html?tab=net-price-calculator',
      ),
    ).toBe('Calculator at stanford.edu');
    expect(linkWords('https://www.umass.edu/net_price_calculator/')).toBe(
      'Net price calculator at umass.edu',
    );
    expect(linkWords('https://www.colby.edu/admission')).toBe('Admission at colby.edu');
    expect(linkWords('https://netprice.tcnj.edu/')).toBe('tcnj.edu');
    expect(linkWords('https://admission.gatech.edu/npc_2020/')).toBe('gatech.edu');
    expect(linkWords('https://www.ox.ac.uk/admissions')).toBe('Admissions at ox.ac.uk');
  });

  it('treats students with grants or loans as a share when the data gives a fraction', () => {
    expect(formatValue(grantsOrLoansKind(0.6), 0.6)).toBe('60%');
    expect(formatValue(grantsOrLoansKind(5400), 5400)).toBe('5,400');
  });

  it('formats calendar dates without shifting the day across time zones', () => {
    expect(formatCalendarDate('2026-11-01')).toBe('November 1, 2026');
    expect(formatCalendarDate('Rolling')).toBe('Rolling');
    expect(formatCalendarDate(null)).toBe('No Info Found');
  });

  it('makes only http(s) links clickable, adds a scheme to bare hosts and drops provider keys', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,hi')).toBeNull();
    expect(safeUrl('admission.gatech.edu/npc_2020/')).toBe('https://admission.gatech.edu/npc_2020/');
    expect(safeUrl('https://collegescorecard.ed.gov/school/?166683')).toBe(
      'https://collegescorecard.ed.gov/school/?166683',
    );
    expect(safeUrl('https://api.data.gov/ed/collegescorecard/v1/schools?id=1&api_key=SECRET')).toBe(
      'https://api.data.gov/ed/collegescorecard/v1/schools?id=1',
    );
    expect(safeUrl('')).toBeNull();
  });

  it('reads dotted paths', () => {
    expect(getPath({ finance: { costAttendance: 5 } }, 'finance.costAttendance')).toBe(5);
    expect(getPath({ finance: null }, 'finance.costAttendance')).toBeUndefined();
  });
});
