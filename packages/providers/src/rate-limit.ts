/**
 * A token bucket: at most `perMinute` calls a minute on average, with bursts up to `burst`.
 * Callers wait their turn in order. One bucket per provider per worker process.
 */
export class RateLimiter {
  private tokens: number;
  private last = Date.now();
  private chain: Promise<void> = Promise.resolve();
  private readonly burst: number;

  constructor(
    private readonly perMinute: number,
    burst?: number,
  ) {
    this.burst = Math.max(1, burst ?? perMinute);
    this.tokens = this.burst;
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.perMinute) / 60_000);
    this.last = now;
  }

  /** Resolves when the caller may make one call. */
  take(): Promise<void> {
    const turn = this.chain.then(async () => {
      this.refill();
      if (this.tokens < 1) {
        const waitMs = Math.ceil(((1 - this.tokens) * 60_000) / this.perMinute);
        await new Promise((r) => setTimeout(r, waitMs));
        this.refill();
      }
      this.tokens -= 1;
    });
    this.chain = turn.catch(() => {});
    return turn;
  }
}
