import type { College, StudentProfile } from '@ct/contracts';
import { COMPARE_METRICS } from '@ct/contracts/constants';
import { formatValue, getPath, grantsOrLoansKind, type ValueKind } from '../../lib/format';
import { moneyFigures, moneyRowKeys, type Better, type MoneyFigure } from '../money/money';

export type Verdict = 'better' | 'worse' | 'same' | null;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** Most colleges side by side. */
export const MAX_COMPARED = 4;

/** Metric value of a college (metric paths are relative to `college.demographics`). */
export function metricValue(college: College | null | undefined, metric: CompareMetric): number | null {
  const v = college ? getPath(college.demographics, metric.path) : null;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The verdict for each college on one row: the best value(s) "better", the worst "worse", the ones in
 * between none; "same" for all when every known value is equal; none at all when fewer than two colleges
 * have a value or the row has no clear direction (`better` null).
 */
export function verdictsOf(better: Better, values: ReadonlyArray<number | null>): Verdict[] {
  const known = values.filter((v): v is number => v !== null);
  if (!better || known.length < 2) return values.map(() => null);
  const best = better === 'higher' ? Math.max(...known) : Math.min(...known);
  const worst = better === 'higher' ? Math.min(...known) : Math.max(...known);
  if (best === worst) return values.map((v) => (v === null ? null : 'same'));
  return values.map((v) => (v === null ? null : v === best ? 'better' : v === worst ? 'worse' : null));
}

/** Two colleges, as the spec's compare has them. */
export function verdicts(metric: CompareMetric, a: number | null, b: number | null): [Verdict, Verdict] {
  const [va, vb] = verdictsOf(metric.better, [a, b]);
  return [va ?? null, vb ?? null];
}

/** Compare shows percentages with two decimals; grants/loans is a share in the data, so it is one too. */
export function formatMetric(metric: CompareMetric, v: number | null): string {
  const kind: ValueKind =
    metric.path === 'finance.studentsGrantsOrLoans' ? grantsOrLoansKind(v) : metric.kind;
  return formatValue(kind, v, { decimals: 2 });
}

/** One row of the comparison, one cell per college. */
export type CompareRow =
  | { kind: 'money'; key: string; figures: MoneyFigure[]; better: Better; verdicts: Verdict[] }
  | {
      kind: 'metric';
      key: string;
      metric: CompareMetric;
      texts: string[];
      better: Better;
      verdicts: Verdict[];
    };

/**
 * The rows for a set of colleges: first the money figures for this student (the card's labels), then the
 * spec's metrics, leaving out the ones a money row already shows.
 */
export function compareRows(
  colleges: ReadonlyArray<College | null>,
  profile: StudentProfile | null,
): CompareRow[] {
  const figures = colleges.map((c) => moneyFigures(c?.demographics, profile, c?.sources));
  const moneyKeys = moneyRowKeys(profile);
  const money: CompareRow[] = moneyKeys.map((key) => {
    const row = figures.map((list) => list.find((f) => f.key === key)!);
    const better = row[0]!.better;
    return {
      kind: 'money',
      key,
      figures: row,
      better,
      verdicts: verdictsOf(
        better,
        row.map((f) => f.value),
      ),
    };
  });
  const shownByMoney = new Set([
    'finance.medianEarnings',
    ...(moneyKeys.includes('inStateTuition') ? ['finance.inStateTuition', 'finance.outOfStateTuition'] : []),
  ]);
  const metrics: CompareRow[] = COMPARE_METRICS.filter((m) => !shownByMoney.has(m.path)).map((m) => {
    const values = colleges.map((c) => metricValue(c, m));
    return {
      kind: 'metric',
      key: m.path,
      metric: m,
      texts: values.map((v) => formatMetric(m, v)),
      better: m.better,
      verdicts: verdictsOf(m.better, values),
    };
  });
  return [...money, ...metrics];
}
