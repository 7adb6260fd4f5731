import type { College, StudentProfile } from '@ct/contracts';
import { COMPARE_METRICS } from '@ct/contracts/constants';
import {
  formatMoney,
  formatNetPrice,
  formatValue,
  getPath,
  grantsOrLoansKind,
  type ValueKind,
} from '../../lib/format';
import { moneyFigures, moneyRowKeys, type Better, type MoneyFigure } from '../money/money';

/** 'best': the best value of its row, highlighted; null: nothing to say (never "worse"). */
export type Verdict = 'best' | null;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** Most colleges side by side. */
export const MAX_COMPARED = 4;

/** Metric value of a college (metric paths are relative to `college.demographics`). */
export function metricValue(college: College | null | undefined, metric: CompareMetric): number | null {
  const v = college ? getPath(college.demographics, metric.path) : null;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * Rows where a student is clearly better off one way: paying less (cost, tuition, net prices), earning more
 * after, graduating more often, fewer students per teacher. Size, admission rate, family incomes, FAFSA
 * applications, grants/loans and debt are facts to weigh, not scores: a smaller school is not "worse".
 */
const CLEAR_DIRECTION = new Set<string>([
  'netPrice',
  'tuition',
  'inStateTuition',
  'outOfStateTuition',
  'medianEarnings',
  'studentFacRatio',
  'finance.costAttendance',
  'finance.inStateTuition',
  'finance.outOfStateTuition',
  'finance.medianEarnings',
  'finance.netPrice0to30000',
  'finance.netPrice30001to48000',
  'finance.netPrice48001to75000',
  'finance.netPrice75001to110000',
  'finance.netPrice110001plus',
  'graduationRate',
]);

/** The direction a row is judged in, only where it is clear (see CLEAR_DIRECTION); otherwise null. */
export function clearDirection(key: string, better: Better): Better {
  return CLEAR_DIRECTION.has(key) ? better : null;
}

/**
 * The verdict for each college on one row: the best value(s) "best", nothing for the others (no value is
 * marked worse); nothing at all when fewer than two colleges have a value, every value is the same, or
 * the row has no clear direction (`better` null).
 */
export function verdictsOf(better: Better, values: ReadonlyArray<number | null>): Verdict[] {
  const known = values.filter((v): v is number => v !== null);
  if (!better || known.length < 2) return values.map(() => null);
  const best = better === 'higher' ? Math.max(...known) : Math.min(...known);
  const worst = better === 'higher' ? Math.min(...known) : Math.max(...known);
  if (best === worst) return values.map(() => null);
  return values.map((v) => (v === best ? 'best' : null));
}

/** Two colleges on one of the spec's metrics, judged only where the direction is clear. */
export function verdicts(metric: CompareMetric, a: number | null, b: number | null): [Verdict, Verdict] {
  const [va, vb] = verdictsOf(clearDirection(metric.path, metric.better), [a, b]);
  return [va ?? null, vb ?? null];
}

/**
 * Compare shows percentages with two decimals; grants/loans is a share in the data, so it is one too; a
 * negative net price says that grants exceed the cost.
 */
export function formatMetric(metric: CompareMetric, v: number | null): string {
  if (metric.path.startsWith('finance.netPrice')) return formatNetPrice(v);
  const kind: ValueKind =
    metric.path === 'finance.studentsGrantsOrLoans' ? grantsOrLoansKind(v) : metric.kind;
  return formatValue(kind, v, { decimals: 2 });
}

/** A net-price band as money, as the college card says it: "Net Price (income $0-$30,000)". */
const netPriceLabel = (band: string) =>
  `Net Price (income ${band.replace(/\d+/g, (n) => formatMoney(Number(n)))})`;

/** A metric's row label: the spec's name, the net-price bands in money as on the college card. */
export function metricLabel(metric: CompareMetric): string {
  const band = /^Net Price (.+)$/.exec(metric.label);
  return band ? netPriceLabel(band[1]!) : metric.label;
}

/**
 * The groups the rows fall into, each one collapsible on the page: the student's own money first, then
 * what a college costs and the aid, its size and admission, what follows college, and the families.
 */
export const COMPARE_GROUPS = [
  { id: 'money', title: 'Your money' },
  { id: 'price', title: 'Price and aid' },
  { id: 'admission', title: 'Size and admission' },
  { id: 'after', title: 'After college' },
  { id: 'families', title: 'Families' },
] as const;
export type CompareGroupId = (typeof COMPARE_GROUPS)[number]['id'];

const GROUP_OF: Record<string, CompareGroupId> = {
  schoolSize: 'admission',
  schoolGradSize: 'admission',
  admissionRate: 'admission',
  studentFacRatio: 'admission',
  'finance.medianEarnings': 'after',
  graduationRate: 'after',
  'finance.avgFamilyIncome': 'families',
  'finance.medianFamilyIncome': 'families',
};

/**
 * One row of the comparison, one cell per college. `empty`: no college has a value. `withData`: how many
 * colleges have a value (a "best" among fewer than all of them says so).
 */
export type CompareRow = {
  key: string;
  group: CompareGroupId;
  better: Better;
  verdicts: Verdict[];
  empty: boolean;
  withData: number;
} & (
  | {
      kind: 'money';
      figures: MoneyFigure[];
      /** The figure whose label names the row (a private college's one tuition does not) */
      labelFigure: MoneyFigure;
    }
  | { kind: 'metric'; metric: CompareMetric; label: string; texts: string[] }
);

/** The words of a "best" mark: "Best", or "Best of 3 with data" when some colleges have no value. */
export function bestText(row: Pick<CompareRow, 'withData' | 'verdicts'>): string {
  return row.withData < row.verdicts.length ? `Best of ${row.withData} with data` : 'Best';
}

/** The rows of each group, in the groups' order; groups with no row are left out. */
export function groupRows(rows: readonly CompareRow[]) {
  return COMPARE_GROUPS.map((g) => ({ ...g, rows: rows.filter((r) => r.group === g.id) })).filter(
    (g) => g.rows.length > 0,
  );
}

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
    // A private college has one tuition: it stands in the in-state and out-of-state rows alike.
    const row = figures.map(
      (list) => list.find((f) => f.key === key) ?? list.find((f) => f.key === 'privateTuition')!,
    );
    const better = clearDirection(key, row[0]!.better);
    return {
      kind: 'money',
      key,
      group: 'money',
      figures: row,
      labelFigure: row.find((f) => f.key === key) ?? row[0]!,
      better,
      verdicts: verdictsOf(
        better,
        row.map((f) => f.value),
      ),
      // A tuition whose college's state is unknown shows both figures: not empty while either is known.
      empty: row.every((f) => f.value === null && f.parts === undefined),
      withData: row.filter((f) => f.value !== null).length,
    };
  });
  const shownByMoney = new Set([
    'finance.medianEarnings',
    ...(moneyKeys.includes('inStateTuition') ? ['finance.inStateTuition', 'finance.outOfStateTuition'] : []),
  ]);
  const metrics: CompareRow[] = COMPARE_METRICS.filter((m) => !shownByMoney.has(m.path)).map((m) => {
    const values = colleges.map((c) => metricValue(c, m));
    const better = clearDirection(m.path, m.better);
    return {
      kind: 'metric',
      key: m.path,
      group: GROUP_OF[m.path] ?? 'price',
      metric: m,
      label: metricLabel(m),
      texts: values.map((v) => formatMetric(m, v)),
      better,
      verdicts: verdictsOf(better, values),
      empty: values.every((v) => v === null),
      withData: values.filter((v) => v !== null).length,
    };
  });
  return [...money, ...metrics];
}
