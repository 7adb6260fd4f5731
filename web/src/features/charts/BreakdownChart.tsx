import type { DemographicBreakdown } from '@ct/contracts';
import { formatPercent } from '../../lib/format';
import { BarList } from './BarList';
import './charts.css';

/** Groups in the order of the card's list; "unknown" reads as Others. Colours told apart by the legend. */
const GROUPS = [
  { key: 'white', label: 'White', colour: '#1d3557' },
  { key: 'black', label: 'Black', colour: '#2a9d8f' },
  { key: 'asian', label: 'Asian', colour: '#c2410c' },
  { key: 'hispanic', label: 'Hispanic', colour: '#6d5bd0' },
  { key: 'twoOrMore', label: 'Two or More Races', colour: '#b7791f' },
  { key: 'nonResident', label: 'Non-Resident', colour: '#0e7490' },
  { key: 'aian', label: 'American Indian/Alaska Native', colour: '#9d174d' },
  { key: 'nhpi', label: 'Native Hawaiian/Pacific Islander', colour: '#4d7c0f' },
  { key: 'unknown', label: 'Others', colour: '#8c959f' },
] as const;

/**
 * The demographic breakdown as one bar of undergraduates by group, with a legend giving each share, and
 * first-generation students as a bar of their own (they are counted across groups). Nothing when the data
 * has no share at all.
 */
export default function BreakdownChart({
  breakdown,
}: {
  breakdown: DemographicBreakdown | null | undefined;
}) {
  const shares = GROUPS.flatMap((g) => {
    const v = breakdown?.[g.key];
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? [{ ...g, v }] : [];
  });
  const firstGen = breakdown?.firstGen;
  if (!shares.length && typeof firstGen !== 'number') return null;
  const total = shares.reduce((n, s) => n + s.v, 0);
  let x = 0;
  return (
    <div className="breakdown-chart">
      {shares.length ? (
        <figure className="chart">
          <figcaption className="chart-caption">Undergraduates by group</figcaption>
          <svg className="stack-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
            {shares.map((s) => {
              const w = (s.v / Math.max(1, total)) * 100;
              const rect = <rect key={s.key} x={x} y="0" width={w} height="10" fill={s.colour} />;
              x += w;
              return rect;
            })}
          </svg>
          <ul className="stack-legend" aria-label="Undergraduates by group">
            {shares.map((s) => (
              <li key={s.key}>
                <span className="swatch" style={{ background: s.colour }} aria-hidden="true" />
                {s.label} <strong>{formatPercent(s.v)}</strong>
              </li>
            ))}
          </ul>
        </figure>
      ) : null}
      {typeof firstGen === 'number' ? (
        <BarList
          caption="First-generation students"
          bars={[
            {
              key: 'firstGen',
              label: 'First-generation',
              fraction: firstGen,
              text: formatPercent(firstGen),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
