import { useState } from 'react';
import { errorMessage, send } from '../../api/client';
import { StatusBanner } from '../../components/StatusBanner';

/**
 * Opens the operators' queue dashboard (served by the gateway at /ops/queues, outside this app): its pages
 * cannot send the ID token, so this first starts a short dashboard session with it (an HttpOnly cookie
 * scoped to the dashboard), then goes there.
 */
export function QueueDashboardButton() {
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    setError(null);
    setOpening(true);
    try {
      // A gateway route, not one of the route table's services: typed loosely.
      const r = (await send('POST', '/ops/session', {})).json ?? {};
      window.location.assign(typeof r.url === 'string' ? r.url : '/ops/queues');
    } catch (err) {
      setOpening(false);
      setError(`Could not open the queue dashboard: ${errorMessage(err)}`);
    }
  };
  return (
    <>
      <button type="button" className="secondary" disabled={opening} onClick={() => void open()}>
        {opening ? 'Opening...' : 'Queue dashboard'}
      </button>
      {error ? <StatusBanner kind="error">{error}</StatusBanner> : null}
    </>
  );
}
