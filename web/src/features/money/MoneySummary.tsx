import type { Demographics, Source, StudentProfile } from '@ct/contracts';
import { useContext, useId } from 'react';
import { Link } from 'react-router';
import { NO_INFO } from '../../lib/format';
import { OwnerSuffix, RegionOwner } from '../colleges/regions';
import { useStudentProfile } from './api';
import { moneyFigures, yearText, type MoneyFigure } from './money';
import './money.css';

/** The one-line invitation shown wherever costs are not yet personal. */
export function ProfileInvite({ profile }: { profile: StudentProfile | null }) {
  if (profile?.incomeBand && profile.homeState) return null;
  const missing =
    !profile?.incomeBand && !profile?.homeState
      ? 'your home state and household income'
      : !profile?.incomeBand
        ? 'your household income'
        : 'your home state';
  return (
    <p className="money-invite">
      <Link to="/profile#money-profile">Add {missing} on your Profile</Link> to see what you would pay.
    </p>
  );
}

/** A figure's label with what it is about, as every screen shows it. */
export function MoneyLabel({ figure }: { figure: MoneyFigure }) {
  return (
    <>
      {figure.label}
      {figure.labelDetail ? <span className="money-detail"> ({figure.labelDetail})</span> : null}
    </>
  );
}

/** A figure as text: quiet "No Info Found" when missing, the amount prominent otherwise. */
function Amount({ text, small = false }: { text: string; small?: boolean }) {
  if (text === NO_INFO) return <span className="no-info">{NO_INFO}</span>;
  // "$0: grants exceed the cost by $4,196": the amount is the figure, the rest says why.
  const [amount, why] = text.split(/:\s(.+)/);
  return (
    <>
      <span className={small ? 'money-value small' : 'money-value'}>{amount}</span>
      {why ? <span className="money-detail">: {why}</span> : null}
    </>
  );
}

/** A figure's value, with what it is for this college and its data year. */
export function MoneyValue({ figure }: { figure: MoneyFigure }) {
  return (
    <>
      {figure.parts ? (
        figure.parts.map((p, i) => (
          <span key={p.label} className="money-part">
            {i ? ' · ' : null}
            {p.label} <Amount text={p.text} small />
          </span>
        ))
      ) : (
        <Amount text={figure.text} />
      )}
      {figure.valueDetail ? <span className="money-detail"> {figure.valueDetail}</span> : null}
      <span className="money-year">{yearText(figure.year)}</span>
    </>
  );
}

/**
 * What a college costs this student and what its graduates owe and earn: their net price, the tuition
 * that applies to them, median debt and median earnings, each with its data year. The same labels on the
 * college card, the dashboard and Compare.
 */
export function MoneySummary({
  demographics,
  sources,
  bare = false,
}: {
  demographics: Demographics | null | undefined;
  /** The college's sources: where its figures' data years come from when the figures do not say */
  sources?: Record<string, Source> | undefined;
  /** Inside a panel that has its own "Cost for you" heading: no heading and no box of its own. */
  bare?: boolean;
}) {
  const q = useStudentProfile();
  const id = useId();
  const owner = useContext(RegionOwner);
  const profile = q.data ?? null;
  return (
    <section
      className={bare ? 'money-summary bare' : 'money-summary'}
      {...(bare ? { 'aria-label': `Cost for you${owner ? ` — ${owner}` : ''}` } : { 'aria-labelledby': id })}
      data-testid="money-summary"
    >
      {bare ? null : (
        <h3 id={id}>
          Cost for you
          <OwnerSuffix />
        </h3>
      )}
      {q.isPending ? (
        <p className="muted" role="status">
          Loading your costs...
        </p>
      ) : (
        <>
          <dl className="money-list">
            {moneyFigures(demographics, profile, sources).map((f) => (
              <div className="money-fact" key={f.key} data-key={f.key}>
                <dt>
                  <MoneyLabel figure={f} />
                </dt>
                <dd>
                  <MoneyValue figure={f} />
                </dd>
              </div>
            ))}
          </dl>
          <ProfileInvite profile={profile} />
        </>
      )}
    </section>
  );
}
