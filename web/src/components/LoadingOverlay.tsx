import { MSG } from '@ct/contracts/messages';

/** Full-screen overlay while something slow happens; the default message is the spec's. */
export function LoadingOverlay({
  message = MSG.loadingOverlay,
  detail,
}: {
  message?: string;
  detail?: string | null;
}) {
  return (
    <div className="loading-overlay" role="status" aria-live="polite" data-testid="loading-overlay">
      <div className="loading-box">
        <div className="spinner" aria-hidden="true" />
        <p className="loading-message">{message}</p>
        {detail ? <p className="loading-detail">{detail}</p> : null}
      </div>
    </div>
  );
}
