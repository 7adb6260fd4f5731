import type { IncomeBand, StateCode } from '@ct/contracts';
import { INCOME_BANDS, incomeBandText, US_STATES } from '@ct/contracts/planning';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { errorMessage } from '../../api/client';
import { useSaveStudentProfile, useStudentProfile } from './api';
import './money.css';
import { ActionBanner, StatusBanner } from '../../components/StatusBanner';

/**
 * The student's money profile on /profile: home state and household income band, both optional and
 * private. Every college card, the dashboard and Compare then show what this student would pay.
 */
export function MoneyProfilePanel() {
  const q = useStudentProfile();
  const save = useSaveStudentProfile();
  const [homeState, setHomeState] = useState<StateCode | ''>('');
  const [incomeBand, setIncomeBand] = useState<IncomeBand | ''>('');
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { hash } = useLocation();

  // Links from a college card ("Add your household income on your Profile") land here.
  useEffect(() => {
    if (hash !== '#money-profile') return;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, [hash]);

  useEffect(() => {
    if (!q.data) return;
    setHomeState(q.data.homeState ?? '');
    setIncomeBand(q.data.incomeBand ?? '');
  }, [q.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    try {
      await save.mutateAsync({ homeState: homeState || null, incomeBand: incomeBand || null });
      setStatus({ kind: 'success', text: 'Saved. Costs on your colleges now use it.' });
    } catch (err) {
      setStatus({ kind: 'error', text: `Could not save: ${errorMessage(err)}` });
    }
  };

  return (
    <section className="card money-profile" id="money-profile" aria-labelledby="money-profile-title">
      <h2 id="money-profile-title" ref={heading} tabIndex={-1}>
        Your costs
      </h2>
      <p className="muted">
        Tell us your home state and household income once, and every college shows your own net price and the
        tuition that applies to you. Both are optional and private: only you see them.
      </p>
      {q.isError ? <StatusBanner kind="error">{errorMessage(q.error)}</StatusBanner> : null}
      <form className="money-profile-form" onSubmit={(e) => void submit(e)} aria-label="Your costs">
        <div className="field">
          <label htmlFor="home-state">Home state</label>
          <select
            id="home-state"
            value={homeState}
            disabled={q.isPending}
            onChange={(e) => setHomeState(e.target.value as StateCode | '')}
          >
            <option value="">Not set</option>
            {US_STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="income-band">Household income (per year)</label>
          <select
            id="income-band"
            value={incomeBand}
            disabled={q.isPending}
            onChange={(e) => setIncomeBand(e.target.value as IncomeBand | '')}
          >
            <option value="">Not set</option>
            {INCOME_BANDS.map((band) => (
              <option key={band} value={band}>
                {incomeBandText(band)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <button type="submit" disabled={q.isPending || save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </button>
        </div>
      </form>
      <ActionBanner banner={status} />
    </section>
  );
}
