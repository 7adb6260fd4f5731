import http from 'node:http';

/** One HTTP call of a virtual user, recorded under a step name. */
export interface Sample {
  step: string;
  ms: number;
  status: number; // 0 when the request never got an answer
  /** A failed attempt the client sent again (the peak run: its replica died with the request on it). */
  retried?: boolean;
}

export interface CallResult {
  status: number;
  body: unknown;
  /** The recorded sample of this call (when recording). */
  sample?: Sample;
}

/**
 * A keep-alive HTTP client for the load run: one socket per concurrent request, like students' browsers,
 * and every call recorded with its latency. Errors are answers too (status 0), never exceptions.
 */
export class LoadClient {
  readonly samples: Sample[] = [];
  recording = false;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 10_000 });
  private readonly host: string;
  private readonly port: number;

  constructor(
    baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
  }

  call(
    step: string,
    method: 'GET' | 'POST',
    path: string,
    opts: {
      token?: string;
      query?: Record<string, string>;
      body?: unknown;
      headers?: Record<string, string>;
    } = {},
  ): Promise<CallResult> {
    const qs = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string | number> = { accept: 'application/json' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.headers) Object.assign(headers, opts.headers);
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const started = performance.now();
    return new Promise((resolve) => {
      const done = (status: number, text: string) => {
        const ms = performance.now() - started;
        const sample = this.recording ? { step, ms, status } : undefined;
        if (sample) this.samples.push(sample);
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: keep the text */
        }
        resolve({ status, body, sample });
      };
      const req = http.request(
        { host: this.host, port: this.port, method, path: `/api${path}${qs}`, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
          res.on('error', () => done(0, 'response error'));
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error('timeout')));
      req.on('error', (err) => done(0, err.message));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface Stats {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Answers other than 2xx, leaving out attempts the client sent again (`retried`). */
  errors: number;
  /** Failed attempts sent again. */
  retried: number;
  byStatus: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Throughput, latency percentiles and errors (anything but a 2xx answer, unless the attempt was sent
 * again) of a list of samples.
 */
export function summarise(samples: Sample[], seconds: number): Stats {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const byStatus: Record<string, number> = {};
  for (const s of samples) byStatus[String(s.status)] = (byStatus[String(s.status)] ?? 0) + 1;
  return {
    requests: samples.length,
    seconds,
    rps: samples.length / seconds,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: ms.at(-1) ?? NaN,
    errors: samples.filter((s) => !s.retried && (s.status < 200 || s.status >= 300)).length,
    retried: samples.filter((s) => s.retried).length,
    byStatus,
  };
}

/** A seeded PRNG (mulberry32), so every run makes the same choices. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Spreads `fn` over `items` with at most `n` at once. */
export async function pool<T, R>(
  items: T[],
  n: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}
