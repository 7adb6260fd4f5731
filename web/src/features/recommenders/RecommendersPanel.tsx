import type { Recommender } from '@ct/contracts';
import { daysBetween, localToday } from '@ct/contracts/planning';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { Countdown } from '../../components/Countdown';
import { formatCalendarDate } from '../../lib/format';
import { newId } from '../../lib/uuid';
import { useRecommenders, useRemoveRecommender, useSaveRecommender } from './api';
import './recommenders.css';
import { StatusBanner } from '../../components/StatusBanner';

/** Where a recommendation stands, in words. */
function stateText(r: Recommender): string {
  if (r.submittedOn) return `Submitted ${formatCalendarDate(r.submittedOn)}`;
  if (r.askedOn) return `Asked ${formatCalendarDate(r.askedOn)}, waiting`;
  return 'Not asked yet';
}

function RecommenderRow({
  r: stored,
  collegeName,
  askBy,
}: {
  r: Recommender;
  collegeName: string;
  askBy: string | null;
}) {
  const save = useSaveRecommender(collegeName);
  const remove = useRemoveRecommender(collegeName);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A change shows at once; it goes back if the server refuses it.
  const [pending, setPending] = useState<Partial<Recommender> | null>(null);
  const r = { ...stored, ...pending };
  const late = !r.askedOn && !r.submittedOn && askBy !== null && daysBetween(localToday(), askBy) < 0;

  const change = async (c: { askedOn?: string | null; submittedOn?: string | null }) => {
    setError(null);
    setPending(c);
    try {
      await save.mutateAsync({ recommenderId: r.id, who: r.who, ...c });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(null);
    }
  };
  const drop = async () => {
    setError(null);
    try {
      await remove.mutateAsync(r.id);
    } catch (err) {
      setError(errorMessage(err));
      setConfirming(false);
    }
  };

  return (
    <li className="recommender" aria-label={r.who}>
      <div className="recommender-head">
        <strong>{r.who}</strong>
        <span className={r.submittedOn ? 'rec-state done' : late ? 'rec-state late' : 'rec-state'}>
          {late ? 'Ask now: the ask-by date has passed' : stateText(r)}
        </span>
      </div>
      <div className="recommender-fields">
        <label>
          Asked on
          <input
            type="date"
            value={r.askedOn ?? ''}
            onChange={(e) => void change({ askedOn: e.target.value || null })}
          />
        </label>
        <label className="checkbox-label">
          <input
            type="checkbox"
            checked={!!r.submittedOn}
            disabled={save.isPending}
            onChange={(e) => void change({ submittedOn: e.target.checked ? localToday() : null })}
          />
          Submitted
        </label>
        {confirming ? (
          <span className="rec-confirm">
            <button
              type="button"
              className="danger small"
              onClick={() => void drop()}
              disabled={remove.isPending}
            >
              Remove {r.who}
            </button>
            <button type="button" className="secondary small" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className="secondary small" onClick={() => setConfirming(true)}>
            Remove
          </button>
        )}
      </div>
      {error ? <StatusBanner kind="error">{error}</StatusBanner> : null}
    </li>
  );
}

/**
 * Who writes the student's recommendations for the selected college: who, asked on, submitted, and the
 * date to ask by (four weeks before the college's earliest deadline still to come).
 */
export function RecommendersPanel({ collegeName }: { collegeName: string | null }) {
  const q = useRecommenders(collegeName);
  const save = useSaveRecommender(collegeName ?? '');
  const [who, setWho] = useState('');
  const [askedOn, setAskedOn] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!who.trim()) return;
    setError(null);
    try {
      await save.mutateAsync({ recommenderId: newId(), who: who.trim(), askedOn: askedOn || null });
      setWho('');
      setAskedOn('');
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const askBy = q.data?.askBy ?? null;
  return (
    <section className="card dashboard-panel recommenders-panel" aria-labelledby="recommenders-title">
      <h2 id="recommenders-title">Recommenders{collegeName ? ` — ${collegeName}` : ''}</h2>
      {!collegeName ? (
        <p className="muted">Select a college to track its recommendations.</p>
      ) : q.isPending ? (
        <p className="muted" role="status">
          Loading recommenders...
        </p>
      ) : q.isError ? (
        <StatusBanner kind="error">{errorMessage(q.error)}</StatusBanner>
      ) : (
        <>
          <p className="ask-by">
            {askBy ? (
              <>
                <strong>Ask by {formatCalendarDate(askBy.date)}</strong> <Countdown date={askBy.date} />
                <span className="muted">
                  {' '}
                  — four weeks before {askBy.deadlineType} ({formatCalendarDate(askBy.deadlineDate)}).
                </span>
              </>
            ) : (
              <span className="muted">This college has no dated deadline still to come to plan from.</span>
            )}
          </p>
          {q.data.recommenders.length ? (
            <ul className="recommender-list" aria-label={`Recommenders for ${collegeName}`}>
              {q.data.recommenders.map((r) => (
                <RecommenderRow key={r.id} r={r} collegeName={collegeName} askBy={askBy?.date ?? null} />
              ))}
            </ul>
          ) : (
            <p className="muted">No recommenders yet. Add the teachers and counselor you will ask.</p>
          )}
          <form className="recommender-form" onSubmit={(e) => void add(e)} aria-label="Add a recommender">
            <div className="field">
              <label htmlFor="recommender-who">Who</label>
              <input
                id="recommender-who"
                value={who}
                maxLength={120}
                placeholder="e.g. Ms. Rivera, chemistry"
                onChange={(e) => setWho(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="recommender-asked">Asked on (optional)</label>
              <input
                id="recommender-asked"
                type="date"
                value={askedOn}
                onChange={(e) => setAskedOn(e.target.value)}
              />
            </div>
            <div className="field">
              <button type="submit" disabled={!who.trim() || save.isPending}>
                Add recommender
              </button>
            </div>
          </form>
          {error ? <StatusBanner kind="error">{error}</StatusBanner> : null}
        </>
      )}
    </section>
  );
}
