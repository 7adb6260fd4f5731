import type { College } from '@ct/contracts';
import { COMPARE_METRICS } from '@ct/contracts/constants';
import { formatValue, getPath, grantsOrLoansKind, type ValueKind } from '../../lib/format';

export type Verdict = 'better' | 'worse' | 'same' | null;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** Metric value of a college (metric paths are relative to `college.demographics`). */
export function metricValue(college: College | null | undefined, metric: CompareMetric): number | null {
  const v = college ? getPath(college.demographics, metric.path) : null;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The verdict for each side: better/worse by the metric's direction, same when equal, none when one is missing. */
export function verdicts(metric: CompareMetric, a: number | null, b: number | null): [Verdict, Verdict] {
  if (a === null || b === null) return [null, null];
  if (a === b) return ['same', 'same'];
  const aWins = metric.better === 'higher' ? a > b : a < b;
  return aWins ? ['better', 'worse'] : ['worse', 'better'];
}

/** Compare shows percentages with two decimals; grants/loans is a share in the data, so it is one too. */
export function formatMetric(metric: CompareMetric, v: number | null): string {
  const kind: ValueKind =
    metric.path === 'finance.studentsGrantsOrLoans' ? grantsOrLoansKind(v) : metric.kind;
  return formatValue(kind, v, { decimals: 2 });
}
