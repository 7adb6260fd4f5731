import type { College } from '@ct/contracts';
import { Link } from 'react-router';
import { useSession } from '../../auth/session';
import { useAcademicProfile } from './api';
import { BAND_TEXT, fitOf } from './fit';
import './fit.css';

/**
 * The academic fit band of one college for the signed-in student, with its rule on screen: the band, why
 * (one sentence naming the data year), each section against its range, and where the test policy comes
 * from. Never a probability (ADR 0090). Reusable: the college card, Compare and the season overview.
 */
export function FitBand({ college, compact = false }: { college: College; compact?: boolean }) {
  const { user } = useSession();
  const q = useAcademicProfile();
  // Until the profile has loaded, say nothing: "Not enough data, add your scores" would be wrong for a
  // student who has them.
  if (!user || q.isPending) return null;
  const fit = fitOf(college, q.data ?? null);
  return (
    <div
      className={`fit-band fit-${fit.band.replace(/\s/g, '-')}`}
      data-testid="fit-band"
      data-band={fit.band}
    >
      <p className="fit-line">
        <span className="fit-label">Fit for you:</span>{' '}
        <strong className="fit-value">{BAND_TEXT[fit.band]}</strong>
      </p>
      <p className="fit-reason">{fit.reason}</p>
      {!compact && fit.sections.length ? (
        <ul className="fit-sections">
          {fit.sections.map((s) => (
            <li key={s.section}>
              {s.section}: you {s.score}, admitted middle half {s.p25}-{s.p75} ({s.position} the range)
            </li>
          ))}
        </ul>
      ) : null}
      {!compact ? (
        <p className="fit-policy muted">
          Test policy: {fit.policy.policy === 'unknown' ? 'No Info Found' : fit.policy.policy}
          {fit.policy.source ? ` (${fit.policy.source})` : null}. A band compares scores with ranges; it is
          not a chance of admission.{' '}
          {!q.data?.updatedAt ? (
            <Link to="/profile#academic-profile">Add your scores on your Profile</Link>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
