import type { College } from '@ct/contracts';
import { applyCosts, CSS_PROFILE_FEES, NO_INFO } from '@ct/contracts/fit';
import { formatMoney } from '../../lib/format';
import { costInput } from './fit';
import './fit.css';

const money = (n: number) => (n === 0 ? 'No fee' : formatMoney(n));

/** What applying to one college costs: its application fee (with the grid's cycle) and the CSS Profile. */
export function ApplicationCost({ college }: { college: College }) {
  const [line] = applyCosts([costInput(college)]).lines;
  return (
    <dl className="apply-cost" data-testid="application-cost">
      <div>
        <dt>Application fee</dt>
        <dd>
          {line!.applicationFee === null ? (
            <span className="no-info">{NO_INFO}</span>
          ) : (
            <>
              {money(line!.applicationFee)} <span className="money-year">{line!.feeSource}</span>
            </>
          )}
        </dd>
      </div>
      <div>
        <dt>CSS Profile</dt>
        <dd>
          {line!.cssProfile ? (
            <>
              Required{' '}
              <span className="money-year">
                (
                <a href={CSS_PROFILE_FEES.source.url} target="_blank" rel="noreferrer">
                  College Board {CSS_PROFILE_FEES.asOf}
                </a>
                )
              </span>
            </>
          ) : (
            <span className="no-info">{NO_INFO}</span>
          )}
        </dd>
      </div>
    </dl>
  );
}

/** The cost of applying to a whole list: fees, CSS Profile and the total, unknowns left out with a note. */
export function ApplicationCostSummary({ colleges }: { colleges: readonly College[] }) {
  const c = applyCosts(colleges.map(costInput));
  return (
    <section
      className="apply-cost-summary"
      aria-label="What applying costs"
      data-testid="application-cost-summary"
    >
      <p>
        Application fees {money(c.feesTotal)}
        {c.cssColleges ? ` + CSS Profile ${money(c.cssTotal)}` : ''} = <strong>{money(c.total)}</strong>
      </p>
      <ul className="fit-notes">
        {c.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </section>
  );
}
