import { dismissNotices, type OutboxState } from './outbox';
import './offline.css';

/** The words shown while writes wait on the device (issue 32). */
export const SAVED_ON_DEVICE = "Saved on this device — will sync when you're online";

/**
 * While writes wait on the device: says so, so nothing looks saved when it is not. When the server
 * refused a write made offline: says which, and why.
 */
export function OfflineBanner({ outbox }: { outbox: OutboxState }) {
  const waiting = outbox.writes.length;
  return (
    <>
      <div className="offline-banner" role="status" aria-live="polite" hidden={waiting === 0}>
        {waiting > 0 && (
          <>
            {SAVED_ON_DEVICE} ({waiting} {waiting === 1 ? 'change' : 'changes'})
          </>
        )}
      </div>
      {outbox.notices.length > 0 && (
        <div className="offline-banner conflict" role="alert">
          <ul>
            {outbox.notices.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
          <button type="button" className="button secondary" onClick={dismissNotices}>
            OK
          </button>
        </div>
      )}
    </>
  );
}
