import type { College, Finance, StudentProfile } from '@ct/contracts';
import { COMPARE_METRICS } from '@ct/contracts/constants';
import { describe, expect, it } from 'vitest';
import {
  bestText,
  compareRows,
  COMPARE_GROUPS,
  formatMetric,
  groupRows,
  metricLabel,
  verdicts,
  verdictsOf,
} from './compare';

const metric = (label: string) => COMPARE_METRICS.find((m) => m.label === label)!;

describe('comparison directions: the best value, only where a student is clearly better off', () => {
  it('marks the higher value best for earnings and graduation rate', () => {
    for (const label of ['Median Earnings', 'Graduation Rate'])
      expect(verdicts(metric(label), 2, 1), label).toEqual(['best', null]);
  });

  it('marks the lower value best for the ratio, costs, tuition and net prices', () => {
    for (const label of [
      'Student-Faculty Ratio',
      'Cost of Attendance',
      'In-State Tuition',
      'Out-of-State Tuition',
      'Net Price 0-30000',
      'Net Price 30001-48000',
      'Net Price 48001-75000',
      'Net Price 75001-110000',
      'Net Price 110001+',
    ])
      expect(verdicts(metric(label), 2, 1), label).toEqual([null, 'best']);
  });

  it('never judges size, admission rate, family incomes, FAFSA applications or grants/loans', () => {
    // A smaller school is not "worse", nor a more selective one "better".
    for (const label of [
      'Undergrad Size',
      'Grad Size',
      'Admission Rate',
      'Average Family Income',
      'Median Family Income',
      'FAFSA Applications',
      'Grants/Loans',
    ])
      expect(verdicts(metric(label), 2, 1), label).toEqual([null, null]);
  });

  it('gives no verdict when a value is missing or every value is the same', () => {
    expect(verdicts(metric('Cost of Attendance'), null, 5)).toEqual([null, null]);
    expect(verdicts(metric('Cost of Attendance'), 5, 5)).toEqual([null, null]);
  });

  it('marks only the best of up to four, ties included, and never a worst', () => {
    expect(verdictsOf('lower', [3, 1, 2, 3])).toEqual([null, 'best', null, null]);
    expect(verdictsOf('higher', [5, 5, 1, null])).toEqual(['best', 'best', null, null]);
    expect(verdictsOf('lower', [4, 4, 4])).toEqual([null, null, null]);
    expect(verdictsOf('lower', [4, null, null])).toEqual([null, null, null]);
    expect(verdictsOf(null, [1, 2, 3])).toEqual([null, null, null]);
  });

  it('shows percentages with two decimals', () => {
    expect(formatMetric(metric('Admission Rate'), 0.0412)).toBe('4.12%');
    expect(formatMetric(metric('Graduation Rate'), 0.6)).toBe('60.00%');
    expect(formatMetric(metric('Grants/Loans'), 0.55)).toBe('55.00%');
    expect(formatMetric(metric('Student-Faculty Ratio'), 21)).toBe('21:1');
    expect(formatMetric(metric('Cost of Attendance'), null)).toBe('No Info Found');
    // Grants above the cost: said in words, never a negative price.
    expect(formatMetric(metric('Net Price 0-30000'), -4196)).toBe('$0: grants exceed the cost by $4,196');
  });
});

/** Just the parts of a college document the comparison reads. */
const college = (name: string, schoolState: string, finance: Partial<Finance>) =>
  ({ name, demographics: { schoolState, demographics: {}, finance } }) as unknown as College;

describe('comparison rows', () => {
  const maine = college('Pine College', 'ME', {
    inStateTuition: 9000,
    outOfStateTuition: 30000,
    medianDebt: 21000,
  });
  const texas = college('Lone Star University', 'TX', {
    inStateTuition: 11000,
    outOfStateTuition: 12000,
    medianDebt: 15000,
  });
  const profile: StudentProfile = { homeState: 'ME', incomeBand: '0-30000', updatedAt: null };

  it('leads with the money rows, with the tuition that applies to the student at each college', () => {
    const rows = compareRows([maine, texas], profile);
    expect(rows.slice(0, 4).map((r) => r.key)).toEqual([
      'netPrice',
      'tuition',
      'medianDebt',
      'medianEarnings',
    ]);
    const tuition = rows[1]!;
    expect(tuition.kind === 'money' && tuition.figures.map((f) => [f.text, f.valueDetail])).toEqual([
      ['$9,000', 'In-state'],
      ['$12,000', 'Out-of-state'],
    ]);
    expect(tuition.verdicts).toEqual(['best', null]);
    // Debt has no direction in the spec's list: shown, never coloured.
    expect(rows[2]!.verdicts).toEqual([null, null]);
    // Median earnings appear once, as a money row.
    expect(rows.filter((r) => r.key.toLowerCase().includes('earnings'))).toHaveLength(1);
  });

  it('without a home state shows both tuitions once, as money rows', () => {
    const rows = compareRows([maine, texas], null);
    expect(rows.slice(0, 5).map((r) => r.key)).toEqual([
      'netPrice',
      'inStateTuition',
      'outOfStateTuition',
      'medianDebt',
      'medianEarnings',
    ]);
    expect(rows.some((r) => r.key === 'finance.inStateTuition')).toBe(false);
  });

  it('marks a row empty only when no chosen college has a value for it', () => {
    const rows = compareRows([maine, texas], null);
    const byKey = new Map(rows.map((r) => [r.key, r.empty]));
    expect(byKey.get('inStateTuition')).toBe(false);
    expect(byKey.get('medianEarnings')).toBe(true);
    expect(byKey.get('finance.fafsaApplications')).toBe(true);
    expect(byKey.get('medianDebt')).toBe(false);
  });

  it('says a negative net price as grants exceeding the cost', () => {
    const generous = college('Grant College', 'ME', { avgNetPrice: -4196 });
    const pricier = college('Fee College', 'TX', { avgNetPrice: 9000 });
    const [net] = compareRows([generous, pricier], null);
    expect(net!.kind === 'money' && net!.figures[0]!.text).toBe('$0: grants exceed the cost by $4,196');
    expect(net!.verdicts).toEqual(['best', null]);
  });

  it('says "Best of 2 with data" when a college has no value for the row, and "Best" when all have one', () => {
    const none = college('Quiet College', 'CA', {});
    const rows = compareRows([maine, texas, none], profile);
    const debt = rows.find((r) => r.key === 'medianDebt')!;
    expect(debt.withData).toBe(2);
    const tuition = rows.find((r) => r.key === 'tuition')!;
    expect(tuition.verdicts).toEqual(['best', null, null]);
    expect(bestText(tuition)).toBe('Best of 2 with data');
    const full = compareRows([maine, texas], profile).find((r) => r.key === 'tuition')!;
    expect(bestText(full)).toBe('Best');
  });
});

describe('comparison labels and groups (issue 34, item 4)', () => {
  it('names the net-price bands in money, as the college card does', () => {
    expect(metricLabel(metric('Net Price 0-30000'))).toBe('Net Price (income $0-$30,000)');
    expect(metricLabel(metric('Net Price 110001+'))).toBe('Net Price (income $110,001+)');
    expect(metricLabel(metric('Admission Rate'))).toBe('Admission Rate');
  });

  it('puts every row in one group, the money rows first, in the groups’ order', () => {
    const rows = compareRows(
      [college('A College', 'ME', { avgNetPrice: 1 }), college('B College', 'TX', { avgNetPrice: 2 })],
      null,
    );
    const groups = groupRows(rows);
    expect(groups.map((g) => g.id)).toEqual(COMPARE_GROUPS.map((g) => g.id));
    expect(groups.flatMap((g) => g.rows)).toHaveLength(rows.length);
    expect(groups[0]!.rows.every((r) => r.kind === 'money')).toBe(true);
    const where = (key: string) => groups.find((g) => g.rows.some((r) => r.key === key))?.id;
    expect(where('admissionRate')).toBe('admission');
    expect(where('finance.netPrice0to30000')).toBe('price');
    expect(where('graduationRate')).toBe('after');
    expect(where('finance.medianFamilyIncome')).toBe('families');
  });
});
