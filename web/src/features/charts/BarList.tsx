import type { ReactNode } from 'react';
import './charts.css';

export interface Bar {
  key: string;
  label: ReactNode;
  /** Share of the longest bar, 0..1; null: no value (no bar, the text says why). */
  fraction: number | null;
  /** The value as words, shown beside the bar. */
  text: ReactNode;
  /** The student's own row (their income band): in the accent colour, and said in words. */
  highlight?: boolean;
  /** A checklist's percent done: drawn in its level's colour (low, half, done), as the checklist's bar. */
  level?: 'low' | 'half' | 'done' | undefined;
}

/**
 * A horizontal bar chart made of plain SVG bars in a list: label, bar, value on each row. The numbers
 * are text on the page (the chart never says anything only by length or colour), and the list is named
 * by its caption for screen readers.
 */
export function BarList({ caption, bars, note }: { caption: string; bars: Bar[]; note?: ReactNode }) {
  return (
    <figure className="chart bar-chart">
      <figcaption className="chart-caption">{caption}</figcaption>
      <ul className="bar-list" aria-label={caption}>
        {bars.map((b) => (
          <li
            key={b.key}
            className={['bar-row', b.highlight ? 'highlight' : '', b.level ? `level-${b.level}` : '']
              .filter(Boolean)
              .join(' ')}
          >
            <span className="bar-label">{b.label}</span>
            <svg className="bar-track" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
              <rect className="bar-bg" x="0" y="0" width="100" height="10" rx="2" />
              {b.fraction !== null && b.fraction > 0 ? (
                <rect
                  className="bar-fill"
                  x="0"
                  y="0"
                  width={Math.max(1.5, Math.min(1, b.fraction) * 100)}
                  height="10"
                  rx="2"
                />
              ) : null}
            </svg>
            <span className="bar-value">{b.text}</span>
          </li>
        ))}
      </ul>
      {note ? <p className="chart-note">{note}</p> : null}
    </figure>
  );
}
