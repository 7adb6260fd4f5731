import type { Demographics, Source, StudentProfile } from '@ct/contracts';
import {
  incomeBandText,
  moneyDataYears,
  netPriceKeyOf,
  stateName,
  tuitionResidency,
} from '@ct/contracts/planning';
import { formatMoney, formatNetPrice, NO_INFO } from '../../lib/format';

/** Which way a figure is better, where the spec's comparison list says so (null: no verdict). */
export type Better = 'lower' | 'higher' | null;

/** One money figure as every screen shows it: the same label, detail and data year everywhere. */
export interface MoneyFigure {
  key:
    | 'netPrice'
    | 'tuition'
    | 'inStateTuition'
    | 'outOfStateTuition'
    /** A private college's one tuition: it stands in any tuition row */
    | 'privateTuition'
    | 'medianDebt'
    | 'medianEarnings';
  label: string;
  /** What the label is about, for this student ("family income $48,001–$75,000") */
  labelDetail: string | null;
  value: number | null;
  /** Formatted value ("No Info Found" when missing) */
  text: string;
  /**
   * Two labelled figures instead of one value (the tuition when the college's state is unknown), each
   * shown with its own "No Info Found" when missing.
   */
  parts?: Array<{ label: string; text: string }>;
  /** What the value is, for this college ("In-state: you live in Maine") */
  valueDetail: string | null;
  /** The data year, e.g. "2021-22", when the data says it */
  year: string | null;
  better: Better;
}

/** The rows a set of colleges is compared on, for a student: labels depend on the profile only. */
export function moneyRowKeys(profile: StudentProfile | null): MoneyFigure['key'][] {
  const tuition: MoneyFigure['key'][] = profile?.homeState
    ? ['tuition']
    : ['inStateTuition', 'outOfStateTuition'];
  return ['netPrice', ...tuition, 'medianDebt', 'medianEarnings'];
}

/**
 * The money figures of a college for a student, leading with their own net price (the band of their
 * household income, from the public or private series as the Scorecard publishes it) and the tuition that
 * applies to them (home state against the college's state; both when either is unknown), then median debt
 * and median earnings, each with its data year (the document's own, else its sources'). Without an income
 * band: the average net price.
 */
export function moneyFigures(
  d: Demographics | null | undefined,
  profile: StudentProfile | null,
  sources?: Record<string, Source> | undefined,
): MoneyFigure[] {
  const f = d?.finance;
  const years = moneyDataYears(d?.dataYears, sources);
  const band = profile?.incomeBand ?? null;
  const figure = (x: Omit<MoneyFigure, 'text'>): MoneyFigure => ({
    ...x,
    text: x.key === 'netPrice' ? formatNetPrice(x.value) : formatMoney(x.value),
  });

  const netPrice = band
    ? figure({
        key: 'netPrice',
        label: 'Your net price',
        labelDetail: `family income ${incomeBandText(band)}`,
        value: f?.[netPriceKeyOf(band)] ?? null,
        valueDetail: null,
        year: years.netPrice ?? null,
        better: 'lower',
      })
    : figure({
        key: 'netPrice',
        label: 'Average net price',
        labelDetail: 'all aided students',
        value: f?.avgNetPrice ?? null,
        valueDetail: null,
        year: years.netPrice ?? null,
        better: 'lower',
      });

  const inState = f?.inStateTuition ?? null;
  const outOfState = f?.outOfStateTuition ?? null;
  const tuitionYear = years.cost ?? null;
  const both = [
    figure({
      key: 'inStateTuition',
      label: 'In-state tuition',
      labelDetail: null,
      value: inState,
      valueDetail: null,
      year: tuitionYear,
      better: 'lower',
    }),
    figure({
      key: 'outOfStateTuition',
      label: 'Out-of-state tuition',
      labelDetail: null,
      value: outOfState,
      valueDetail: null,
      year: tuitionYear,
      better: 'lower',
    }),
  ];
  let tuition: MoneyFigure[] = both;
  const home = profile?.homeState ?? null;
  if (isPrivate(d)) {
    // A private college charges every student the same tuition: no in-state or out-of-state to speak of.
    tuition = [
      figure({
        key: 'privateTuition',
        label: 'Tuition',
        labelDetail: null,
        value: inState ?? outOfState,
        valueDetail: 'Private college: one tuition for every student',
        year: tuitionYear,
        better: 'lower',
      }),
    ];
  } else if (home) {
    const residency = tuitionResidency(home, d?.schoolState);
    const value = residency === 'in-state' ? inState : residency === 'out-of-state' ? outOfState : null;
    // The college's state is unknown: both figures (when either is known), and no verdict.
    const parts =
      residency === 'unknown' && (inState !== null || outOfState !== null)
        ? [
            { label: 'In-state', text: formatMoney(inState) },
            { label: 'out-of-state', text: formatMoney(outOfState) },
          ]
        : undefined;
    tuition = [
      {
        key: 'tuition',
        label: 'Your tuition',
        labelDetail: `home state ${stateName(home)}`,
        value,
        text: parts ? parts.map((p) => `${p.label} ${p.text}`).join(' · ') : formatMoney(value),
        ...(parts ? { parts } : {}),
        valueDetail:
          residency === 'in-state'
            ? 'In-state'
            : residency === 'out-of-state'
              ? 'Out-of-state'
              : "The college's state is not known",
        year: tuitionYear,
        better: 'lower',
      },
    ];
  }

  return [
    netPrice,
    ...tuition,
    figure({
      key: 'medianDebt',
      label: 'Median debt',
      labelDetail: 'of graduates who borrowed',
      value: f?.medianDebt ?? null,
      valueDetail: null,
      year: years.debt ?? null,
      // Not in the spec's list of comparison directions: shown, never coloured.
      better: null,
    }),
    figure({
      key: 'medianEarnings',
      label: 'Median earnings',
      labelDetail: '10 years after entry',
      value: f?.medianEarnings ?? null,
      valueDetail: null,
      year: years.earnings ?? null,
      better: 'higher',
    }),
  ];
}

/** A private college (nonprofit or for-profit, Scorecard CONTROL 2 or 3): one tuition, whoever you are. */
export function isPrivate(d: Demographics | null | undefined): boolean {
  return !!d?.ownership?.startsWith('Private');
}

/** True when a figure has nothing to show at all (no value, no part). */
export function figureMissing(f: MoneyFigure): boolean {
  return f.text === NO_INFO;
}

/** "2021-22 data", or a plain admission that the year is unknown. */
export function yearText(year: string | null): string {
  return year ? `${year} data` : 'year not stated';
}
