/** Which outside provider an error came from. */
export type ProviderName = 'scorecard' | 'openai';

/**
 * What went wrong, as far as retrying is concerned: `unavailable`, `timeout`, `rate-limited` and
 * `malformed` may succeed on a later try; `auth` and `bad-request` will not, and neither will `paused`
 * (our own hourly limit on AI calls is spent: a try seconds later would find it spent too).
 */
export type ProviderErrorKind =
  'unavailable' | 'timeout' | 'rate-limited' | 'malformed' | 'auth' | 'bad-request' | 'paused';

const LABEL: Record<ProviderName, string> = {
  scorecard: 'The College Scorecard API',
  openai: 'The AI provider',
};

/** A provider failure with a message a student (or an operator) can read; never carries a key or URL query. */
export class ProviderError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly provider: ProviderName,
    readonly kind: ProviderErrorKind,
    detail: string,
    readonly status: number | null = null,
  ) {
    super(`${LABEL[provider]} ${detail}`);
    this.name = 'ProviderError';
    this.retryable = kind !== 'auth' && kind !== 'bad-request' && kind !== 'paused';
  }
}

/** Maps an HTTP status of a provider to a ProviderError. */
export function httpError(provider: ProviderName, status: number): ProviderError {
  if (status === 401 || status === 403)
    return new ProviderError(provider, 'auth', `refused our API key (HTTP ${status})`, status);
  if (status === 429)
    return new ProviderError(provider, 'rate-limited', 'is rate-limiting us (HTTP 429)', status);
  if (status >= 500)
    return new ProviderError(provider, 'unavailable', `did not answer (HTTP ${status})`, status);
  return new ProviderError(provider, 'bad-request', `refused the request (HTTP ${status})`, status);
}
