import { errorMessage } from '../api/client';
import { StatusBanner } from './StatusBanner';

/**
 * What could not be loaded, why, and a Retry button: a failed load is never shown as an empty list or
 * an empty panel.
 */
export function LoadError({
  what,
  error,
  onRetry,
  retrying,
}: {
  /** Starts the sentence, e.g. "Your colleges could not be loaded." */
  what: string;
  error: unknown;
  onRetry(): void;
  retrying: boolean;
}) {
  return (
    <StatusBanner kind="error" as="div" className="load-error">
      <span>
        {what} {errorMessage(error)}
      </span>
      <button type="button" className="secondary small" disabled={retrying} onClick={onRetry}>
        {retrying ? 'Retrying...' : 'Retry'}
      </button>
    </StatusBanner>
  );
}
