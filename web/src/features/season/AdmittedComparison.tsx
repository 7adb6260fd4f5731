import type { Demographics, SeasonCollege, Source } from '@ct/contracts';
import { sourceYear } from '@ct/contracts/planning';
import { aidOfferFigures, LOAN_LABELS } from '@ct/contracts/season';
import type { ReactNode } from 'react';
import { formatMoney, formatPercent, NO_INFO } from '../../lib/format';
import { findSource, SourceLink, type Sources } from '../colleges/sources';
import { useStudentProfile } from '../money/api';
import { MoneyLabel, MoneyValue } from '../money/MoneySummary';
import { moneyFigures, yearText } from '../money/money';
import { useCollegeDocuments, useDemographicsOf } from './api';

const FLAG_TEXT = {
  'no-cost-of-attendance':
    'This letter does not state the cost of attendance: ask the college for it before you compare.',
  'loans-counted-as-aid':
    'This letter counts loans as aid. Loans are borrowed and paid back: they are not aid.',
} as const;

/** A figure of the college's own data, with its source and year (or a plain admission that it is unknown). */
function Official({ text, year, source }: { text: string; year: string | null; source: Source | null }) {
  return (
    <>
      {text === NO_INFO ? (
        <span className="no-info">{NO_INFO}</span>
      ) : (
        <span className="money-value small">{text}</span>
      )}
      <span className="money-year">{yearText(year)}</span>
      {source ? <SourceLink source={source} /> : <span className="source-note">Source not stated</span>}
    </>
  );
}

/**
 * The admitted colleges side by side: each award letter's net cost (cost of attendance minus grants only),
 * what is left to pay, and loans apart (never as aid), with flags on letters that leave out the cost or
 * count loans as aid; then the college's official net price for the student's income band, graduation
 * rate, retention and median earnings, each with its source and year.
 */
export function AdmittedComparison({ colleges }: { colleges: readonly SeasonCollege[] }) {
  const names = colleges.map((c) => c.collegeName);
  const demo = useDemographicsOf(names);
  const docs = useCollegeDocuments(names);
  const profile = useStudentProfile().data ?? null;
  if (!colleges.length) return null;

  const rows: Array<{ label: ReactNode; cells: ReactNode[] }> = [];
  const figures = colleges.map((c) => (c.aidOffer ? aidOfferFigures(c.aidOffer) : null));
  const offerCell = (i: number, f: (x: NonNullable<(typeof figures)[number]>) => ReactNode) => {
    const x = figures[i];
    return x ? f(x) : <span className="muted">No aid offer entered</span>;
  };
  rows.push({
    label: 'Cost of attendance (letter)',
    cells: colleges.map((c, i) =>
      offerCell(i, () =>
        c.aidOffer!.costOfAttendance === null ? 'Not stated' : formatMoney(c.aidOffer!.costOfAttendance),
      ),
    ),
  });
  rows.push({
    label: 'Grants and scholarships',
    cells: colleges.map((_, i) => offerCell(i, (x) => formatMoney(x.grants))),
  });
  rows.push({
    label: 'Net cost (cost minus grants)',
    cells: colleges.map((_, i) =>
      offerCell(i, (x) => (
        <strong>{x.netCost === null ? 'Unknown: no cost stated' : formatMoney(x.netCost)}</strong>
      )),
    ),
  });
  rows.push({
    label: 'Work-study',
    cells: colleges.map((_, i) => offerCell(i, (x) => formatMoney(x.workStudy))),
  });
  rows.push({
    label: 'Left to pay (net cost minus work-study)',
    cells: colleges.map((_, i) =>
      offerCell(i, (x) => (x.leftToPay === null ? 'Unknown' : formatMoney(x.leftToPay))),
    ),
  });
  rows.push({
    label: 'Loans offered (borrowed, not aid)',
    cells: colleges.map((c, i) =>
      offerCell(i, (x) => (
        <>
          {formatMoney(x.loans)}
          {c.aidOffer!.loans.length ? (
            <ul className="aid-loans">
              {c.aidOffer!.loans.map((l, j) => (
                <li key={j}>
                  {LOAN_LABELS[l.kind]}: {formatMoney(l.amount)}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )),
    ),
  });
  rows.push({
    label: 'Check the letter',
    cells: colleges.map((_, i) =>
      offerCell(i, (x) =>
        x.flags.length ? (
          <ul className="aid-flags">
            {x.flags.map((f) => (
              <li key={f}>{FLAG_TEXT[f]}</li>
            ))}
          </ul>
        ) : (
          'Nothing to flag'
        ),
      ),
    ),
  });

  const demoOf = (i: number): Demographics | null => demo[i]?.data?.demographics ?? null;
  const sourcesOf = (i: number): Sources | undefined => docs[i]?.data?.sources;
  const source = (i: number, path: string) => findSource(sourcesOf(i), path)?.source ?? null;
  const net = colleges.map((_, i) => moneyFigures(demoOf(i), profile, sourcesOf(i)));
  rows.push({
    label: net[0] ? <MoneyLabel figure={net[0][0]!} /> : 'Net price',
    cells: colleges.map((_, i) => {
      const f = net[i]![0]!;
      const offer = figures[i];
      return (
        <>
          <MoneyValue figure={f} />
          {source(i, 'demographics.finance') ? (
            <SourceLink source={source(i, 'demographics.finance')!} />
          ) : null}
          {offer?.netCost != null && f.value !== null ? (
            <span className="money-detail">
              {' '}
              Your offer is {formatMoney(Math.abs(offer.netCost - f.value))}{' '}
              {offer.netCost > f.value ? 'more' : 'less'} than this.
            </span>
          ) : null}
        </>
      );
    }),
  });
  rows.push({
    label: 'Graduation rate',
    cells: colleges.map((_, i) => {
      const d = demoOf(i);
      const rate = d?.graduationRate ?? d?.finance.graduationRate ?? null;
      const src = source(i, 'demographics.graduationRate');
      return (
        <Official
          text={formatPercent(rate)}
          year={d?.dataYears?.completion ?? sourceYear(src ?? undefined)}
          source={src}
        />
      );
    }),
  });
  rows.push({
    label: 'Retention (first-year students who return)',
    // Scorecard RET_FT4 (four-year institutions); "No Info Found" where the file has none.
    cells: colleges.map((_, i) => {
      const d = demoOf(i);
      const src = source(i, 'demographics.retentionRate');
      return (
        <Official
          text={formatPercent(d?.retentionRate ?? null)}
          year={d?.dataYears?.completion ?? sourceYear(src ?? undefined)}
          source={src}
        />
      );
    }),
  });
  rows.push({
    label: 'Median earnings (10 years after entry)',
    cells: colleges.map((_, i) => {
      const f = net[i]!.find((x) => x.key === 'medianEarnings')!;
      return (
        <Official text={f.text} year={f.year} source={source(i, 'demographics.finance.medianEarnings')} />
      );
    }),
  });

  return (
    <section
      className="card season-compare"
      aria-labelledby="season-compare-title"
      data-testid="admitted-comparison"
    >
      <h2 id="season-compare-title">Your admissions side by side</h2>
      <p className="muted">
        Net cost is the cost of attendance minus grants and scholarships only. Loans are shown apart: they are
        borrowed money, never aid.
      </p>
      <div className="season-compare-scroll" tabIndex={0} role="region" aria-label="Admissions compared">
        <table className="season-compare-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Figure</span>
              </th>
              {colleges.map((c) => (
                <th scope="col" key={c.collegeId}>
                  {c.collegeName}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, k) => (
              <tr key={k}>
                <th scope="row">{r.label}</th>
                {r.cells.map((cell, i) => (
                  <td key={colleges[i]!.collegeId} data-label={colleges[i]!.collegeName}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
