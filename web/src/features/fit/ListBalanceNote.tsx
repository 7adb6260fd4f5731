import { listBalance, type BalanceItem } from '@ct/contracts/fit';
import { BAND_TEXT } from './fit';

/**
 * The balance of the student's list (issue 22): how many colleges are a reach, a target or likely, and a
 * plain note when the list lacks a likely college or a financial safety (ADR 0090). Counts, never odds.
 */
export function ListBalanceNote({
  items,
  budget,
  incomeBandSet,
}: {
  items: BalanceItem[];
  budget: number | null;
  incomeBandSet: boolean;
}) {
  if (!items.length) return null;
  const { counts, notes } = listBalance(items, { budget, incomeBandSet });
  return (
    <section className="list-balance" aria-label="Your list's balance" data-testid="list-balance">
      <p>
        {(['reach', 'target', 'likely', 'not enough data'] as const)
          .map((band) => `${BAND_TEXT[band]}: ${counts[band]}`)
          .join(' · ')}
      </p>
      {notes.length ? (
        <ul className="fit-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
