import { errorMessage } from '../../api/client';
import { useResourcesDemographics } from '../../api/student';
import { MoneySummary } from './MoneySummary';
import './money.css';
import { StatusBanner } from '../../components/StatusBanner';

/** The dashboard leads with what the selected college would cost this student. */
export function CostPanel({ collegeName }: { collegeName: string | null }) {
  const q = useResourcesDemographics(collegeName);
  return (
    <section className="card dashboard-panel cost-panel" aria-labelledby="cost-panel-title">
      <h2 id="cost-panel-title">Cost for you{collegeName ? ` — ${collegeName}` : ''}</h2>
      {!collegeName ? (
        <p className="muted">Select a college to see what it would cost you.</p>
      ) : q.isPending ? (
        <p className="muted" role="status">
          Loading your costs...
        </p>
      ) : q.isError ? (
        <StatusBanner kind="error">{errorMessage(q.error)}</StatusBanner>
      ) : (
        <MoneySummary demographics={q.data.demographics} bare />
      )}
    </section>
  );
}
