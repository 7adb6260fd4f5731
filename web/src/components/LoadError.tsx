import { errorMessage } from '../api/client';

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
    <div className="banner error load-error" role="alert">
      <span>
        {what} {errorMessage(error)}
      </span>
      <button type="button" className="secondary small" disabled={retrying} onClick={onRetry}>
        {retrying ? 'Retrying...' : 'Retry'}
      </button>
    </div>
  );
}
