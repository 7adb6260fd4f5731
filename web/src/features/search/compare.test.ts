import { COMPARE_METRICS } from '@ct/contracts/constants';
import { describe, expect, it } from 'vitest';
import { formatMetric, verdicts } from './compare';

const metric = (label: string) => COMPARE_METRICS.find((m) => m.label === label)!;

describe('comparison directions (spec)', () => {
  it('higher is better for sizes, earnings, incomes, FAFSA applications and graduation rate', () => {
    for (const label of [
      'Undergrad Size',
      'Grad Size',
      'Median Earnings',
      'Average Family Income',
      'Median Family Income',
      'FAFSA Applications',
      'Graduation Rate',
    ]) {
      expect(verdicts(metric(label), 2, 1), label).toEqual(['better', 'worse']);
    }
  });

  it('lower is better for admission rate, ratio, costs, tuition, net prices and grants/loans', () => {
    for (const label of [
      'Admission Rate',
      'Student-Faculty Ratio',
      'Cost of Attendance',
      'In-State Tuition',
      'Out-of-State Tuition',
      'Grants/Loans',
      'Net Price 0-30000',
      'Net Price 30001-48000',
      'Net Price 48001-75000',
      'Net Price 75001-110000',
      'Net Price 110001+',
    ]) {
      expect(verdicts(metric(label), 2, 1), label).toEqual(['worse', 'better']);
    }
  });

  it('gives no verdict when a value is missing, and "same" when equal', () => {
    expect(verdicts(metric('Admission Rate'), null, 0.5)).toEqual([null, null]);
    expect(verdicts(metric('Admission Rate'), 0.5, 0.5)).toEqual(['same', 'same']);
  });

  it('shows percentages with two decimals', () => {
    expect(formatMetric(metric('Admission Rate'), 0.0412)).toBe('4.12%');
    expect(formatMetric(metric('Graduation Rate'), 0.6)).toBe('60.00%');
    expect(formatMetric(metric('Grants/Loans'), 0.55)).toBe('55.00%');
    expect(formatMetric(metric('Student-Faculty Ratio'), 21)).toBe('21:1');
    expect(formatMetric(metric('Cost of Attendance'), null)).toBe('No Info Found');
  });
});
