// What every benchmark shares: `load()`, which drives a server from a load-generator process of its own
// (bench/loadgen.ts, autocannon), and the figure lines with their targets, counted into the final summary.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../scripts/lib/stack.ts';

/** One request the load generator sends; requests of a run are sent in turn. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Path with its query string. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What bench/loadgen.ts reads on stdin. */
export interface LoadSpec {
  /** The server's origin. */
  url: string;
  connections: number;
  /** Seconds to run (ignored when `amount` is set). */
  duration?: number;
  /** Send exactly this many requests instead of running for a time. */
  amount?: number;
  /** Seconds of load before the measured run, not counted. */
  warmupSeconds?: number;
  timeoutSeconds?: number;
  /** Plain autocannon: each request's bytes built once, each connection cycling through `requests`. */
  plain?: boolean;
  requests: LoadRequest[];
}

/** Throughput and latency (ms, every response counted) of one run. */
export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers other than 2xx. */
  non2xx: number;
  statuses: Record<string, number>;
  /** With `cpu`: the server's CPU time per answered request, in µs. */
  cpuUsPerRequest?: number;
  /** With `cpuParts`: the same, by process (gateway, each service, Postgres). */
  cpuUsByPart?: Record<string, number>;
}

/**
 * Drives `url` (origin plus path of the default request) from a separate Node process. `requests` are
 * sent in turn instead of the one default request; their headers are added to `headers`.
 */
export function load(opts: {
  url: string;
  connections?: number;
  duration?: number;
  amount?: number;
  warmup?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  requests?: LoadRequest[];
  /** The server's CPU seconds so far (BenchServer.cpuSeconds): adds `cpuUsPerRequest` to the result. */
  cpu?: () => number;
  /** CPU seconds so far by part of the server (process names): adds `cpuUsByPart` to the result. */
  cpuParts?: () => Map<string, number>;
  /** Seconds a request may wait for its answer before it counts as an error (default 10). */
  timeout?: number;
  /** Plain autocannon (see LoadSpec.plain): how throughput figures and their reference are measured. */
  plain?: boolean;
}): Promise<LoadResult> {
  const u = new URL(opts.url);
  const headers = {
    ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...opts.headers,
  };
  const requests = (
    opts.requests ?? [
      {
        method: opts.method ?? 'GET',
        path: `${u.pathname}${u.search}`,
        ...(opts.body !== undefined ? { body: opts.body } : {}),
      },
    ]
  ).map((r) => ({ ...r, headers: { ...headers, ...r.headers } }));
  const spec: LoadSpec = {
    url: u.origin,
    connections: opts.connections ?? 50,
    ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.duration ?? 10 }),
    ...(opts.warmup ? { warmupSeconds: opts.warmup } : {}),
    ...(opts.timeout ? { timeoutSeconds: opts.timeout } : {}),
    ...(opts.plain ? { plain: true } : {}),
    requests,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/loadgen.ts')], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    let cpuAtStart: number | undefined;
    let partsAtStart: Map<string, number> | undefined;
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (cpuAtStart === undefined && opts.cpu && out.includes('measuring\n')) {
        cpuAtStart = opts.cpu();
        partsAtStart = opts.cpuParts?.();
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1);
      if (code !== 0 || !last?.startsWith('{'))
        return reject(new Error(`load generator exited (${code}): ${out}`));
      const result = JSON.parse(last) as LoadResult;
      if (opts.cpu && cpuAtStart !== undefined && result.requests > 0)
        result.cpuUsPerRequest = ((opts.cpu() - cpuAtStart) / result.requests) * 1e6;
      if (opts.cpuParts && partsAtStart && result.requests > 0)
        result.cpuUsByPart = Object.fromEntries(
          [...opts.cpuParts()].map(([k, v]) => [
            k,
            ((v - (partsAtStart!.get(k) ?? 0)) / result.requests) * 1e6,
          ]),
        );
      resolve(result);
    });
    child.stdin.end(JSON.stringify(spec));
  });
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** A latency in ms with one decimal. */
export const ms = (n: number) => `${fmt(n, 1)} ms`;

interface Line {
  label: string;
  value: string;
  target?: string | undefined;
  met?: boolean | undefined;
  bare?: string | undefined;
}

const lines: Line[] = [];

function format(l: Line): string {
  const verdict = l.target === undefined ? '' : l.met ? '  PASS' : '  FAIL';
  return (
    `${l.label.padEnd(68)} ${l.value.padStart(24)}` +
    `${l.bare ? `   bare ${l.bare}` : ''}${l.target ? `   target ${l.target}` : ''}${verdict}`
  );
}

/**
 * One figure on one line: its value, the bare-Fastify reference of the same run when it has one, and its
 * target with PASS/FAIL. Figures with a target count in the final `N passed, M failed`.
 */
export function figure(
  label: string,
  value: string,
  opts: { target?: string; met?: boolean; bare?: string } = {},
) {
  const l: Line = { label, value, target: opts.target, met: opts.met, bare: opts.bare };
  lines.push(l);
  console.log(format(l));
}

/** Older form of `figure`: a figure line with an optional target. */
export function report(label: string, value: string, target?: string, met?: boolean): void {
  figure(label, value, {
    ...(target !== undefined ? { target } : {}),
    ...(met !== undefined ? { met } : {}),
  });
}

/** A figure that could not be measured: counted as failed, with the reason. */
export function failedFigure(label: string, err: unknown): void {
  const reason = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  figure(label, 'not measured', { target: reason.slice(0, 120), met: false });
}

/** A line of detail under a figure (not repeated in the summary). */
export function detail(label: string, value: string): void {
  console.log(`  ${label.padEnd(66)} ${value.padStart(24)}`);
}

/** Every figure again, then `N passed, M failed` over those with a target; returns the failures. */
export function printSummary(): number {
  const targets = lines.filter((l) => l.target !== undefined);
  const passed = targets.filter((l) => l.met).length;
  console.log('\n=== summary ===');
  for (const l of lines) console.log(format(l));
  console.log(`\n${passed} passed, ${targets.length - passed} failed`);
  return targets.length - passed;
}
