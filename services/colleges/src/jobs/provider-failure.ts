import { ProviderError } from '@ct/providers';

/**
 * A provider's failure that another try could fix is thrown again while tries remain (the queue retries
 * the job); otherwise it is kept, to be named in the document or the failure reason. Anything that is
 * not a provider's failure is thrown again.
 */
export function absorb(err: unknown, lastTry: boolean): ProviderError {
  if (!(err instanceof ProviderError)) throw err;
  if (err.retryable && !lastTry) throw err;
  return err;
}
