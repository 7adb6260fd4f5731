// The load generator, a process of its own (started by bench/lib.ts `load()`): reads one LoadSpec as JSON
// on stdin, drives the server with autocannon, and prints one LoadResult as JSON on stdout. Requests walk
// through `spec.requests` in turn across all connections, so each can carry its own path, token and body.
// Latencies are every response's own time (autocannon's histograms round to whole milliseconds).
// With `spec.plain`, autocannon gets the requests as they are and builds each one's bytes once (each
// connection cycles through them): plain autocannon, as a throughput figure and its reference are measured;
// without it, every request is built as it is sent (a request's turn is then global across connections).
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './lib.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function drive(spec: LoadSpec, seconds: number | undefined): Promise<LoadResult> {
  const variants = spec.requests;
  let next = 0;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  let finished = started;
  let done!: (err: unknown) => void;
  const finishedRun = new Promise<void>(
    (resolve, reject) => (done = (err) => (err ? reject(err) : resolve())),
  );
  const instance = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      ...(spec.amount !== undefined && seconds === undefined ? { amount: spec.amount } : {}),
      ...(seconds !== undefined ? { duration: seconds } : {}),
      timeout: spec.timeoutSeconds ?? 10,
      requests: spec.plain
        ? variants.map((v) => ({
            method: v.method,
            path: v.path,
            ...(v.headers ? { headers: v.headers } : {}),
            ...(v.body !== undefined ? { body: v.body } : {}),
          }))
        : [
            {
              setupRequest: (req) => {
                const v = variants[next++ % variants.length]!;
                return {
                  ...req,
                  method: v.method,
                  path: v.path,
                  headers: { ...req.headers, ...v.headers },
                  ...(v.body !== undefined ? { body: v.body } : {}),
                };
              },
            },
          ],
    },
    (err) => done(err),
  );
  instance.on('response', (_client, statusCode, _bytes, ms) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    finished = performance.now();
  });
  instance.on('reqError', () => {
    // connection errors and timeouts (autocannon reports both here)
    errors++;
    finished = performance.now();
  });
  await finishedRun;
  const sorted = latencies.slice(0, count).sort();
  const non2xx = Object.entries(statuses)
    .filter(([s]) => !s.startsWith('2'))
    .reduce((n, [, c]) => n + c, 0);
  // A run of a fixed length: the requests over its length; a fixed number of requests: over the time
  // from the first request to the last answer.
  const spanSeconds = seconds ?? Math.max((finished - started) / 1000, 0.001);
  return {
    requests: count,
    seconds: spanSeconds,
    rps: count / spanSeconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    errors,
    non2xx,
    statuses,
  };
}

const spec = JSON.parse(await readStdin()) as LoadSpec;
if (spec.warmupSeconds) await drive(spec, spec.warmupSeconds);
// Tells the parent the measured run starts now (it samples the server's CPU time at this line).
process.stdout.write('measuring\n');
const result = await drive(spec, spec.amount !== undefined ? undefined : (spec.duration ?? 10));
process.stdout.write(`${JSON.stringify(result)}\n`);
