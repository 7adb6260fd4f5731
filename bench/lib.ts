import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

/** Drives one URL with autocannon and returns throughput and latency (ms). */
export async function load(opts: {
  url: string;
  connections?: number;
  duration?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  requests?: autocannon.Request[];
}): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.duration ?? 10,
    headers: opts.headers ?? {},
    method: opts.method ?? 'GET',
    ...(opts.body ? { body: opts.body } : {}),
    ...(opts.requests ? { requests: opts.requests } : {}),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** Prints one figure with its target and whether it is met. */
export function report(label: string, value: string, target?: string, met?: boolean): void {
  const status = target === undefined ? '' : met ? '  [met]' : '  [NOT met]';
  console.log(`${label.padEnd(48)} ${value.padStart(14)}${target ? `   target ${target}` : ''}${status}`);
}
