/**
 * How often a request's line is written (ACCESS_LOG). A line per request was about a fifth of the
 * gateway's busy time on a cheap route (the JSON, the redaction and the write; docs/performance.md), and
 * 230 bytes of log per request at thousands a second.
 *
 * - `full`: every request's line, as before.
 * - `sampled` (the default): every answer of 400 or more and every error, whole; of the others, the first
 *   of each route, method and status in each summary period, then one in `SAMPLE_EVERY`; and once a
 *   period, one summary line counting every request by route, method and status, with its mean and
 *   longest time. Nothing is lost from the counts; the sampled lines show what a line of each kind holds.
 */
export type AccessLogMode = 'sampled' | 'full';

export const ACCESS_LOG_MODES: readonly AccessLogMode[] = ['sampled', 'full'];

/** One in this many successful requests of a kind is written whole after the first of the period. */
export const SAMPLE_EVERY = 100;
/** How often the summary line is written (and the counts start again). */
export const SUMMARY_MS = 60_000;

interface Tally {
  n: number;
  totalMs: number;
  maxMs: number;
}

export class AccessLog {
  private tallies = new Map<string, Tally>();
  private since = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private write: ((obj: Record<string, unknown>, msg: string) => void) | undefined;

  constructor(
    readonly mode: AccessLogMode = 'sampled',
    private readonly summaryMs = SUMMARY_MS,
    private readonly sampleEvery = SAMPLE_EVERY,
  ) {}

  /** Where summary lines go (the app's logger); starts the period timer. */
  start(write: (obj: Record<string, unknown>, msg: string) => void): void {
    if (this.mode === 'full') return;
    this.write = write;
    this.since = Date.now();
    this.timer = setInterval(() => this.flush(), this.summaryMs);
    this.timer.unref();
  }

  /**
   * Counts one answered request; true when its line is to be written whole. `route` is the route's
   * pattern (never the URL: no ids, no query), so the summary holds nothing a student sent.
   */
  keep(method: string, route: string, status: number, ms: number): boolean {
    if (this.mode === 'full') return true;
    const key = `${method} ${route} ${status}`;
    let t = this.tallies.get(key);
    if (!t) this.tallies.set(key, (t = { n: 0, totalMs: 0, maxMs: 0 }));
    t.n++;
    t.totalMs += ms;
    if (ms > t.maxMs) t.maxMs = ms;
    return status >= 400 || t.n % this.sampleEvery === 1 || this.sampleEvery === 1;
  }

  /** Writes the period's summary line (when anything was answered) and starts a new period. */
  flush(): void {
    if (!this.write || this.tallies.size === 0) {
      this.since = Date.now();
      return;
    }
    const requests: Record<string, { n: number; msMean: number; msMax: number }> = {};
    let total = 0;
    for (const [key, t] of this.tallies) {
      total += t.n;
      requests[key] = {
        n: t.n,
        msMean: Math.round((t.totalMs / t.n) * 10) / 10,
        msMax: Math.round(t.maxMs * 10) / 10,
      };
    }
    const seconds = Math.round((Date.now() - this.since) / 100) / 10;
    this.tallies = new Map();
    this.since = Date.now();
    this.write({ requests, total, seconds }, 'requests summary');
  }

  /** The last summary, then no more. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
    this.write = undefined;
  }
}
