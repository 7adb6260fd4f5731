import { ESSAY_EXAMPLES_QUEUE, EVENT_SUBSCRIBERS, eventQueueName, INGESTION_QUEUE } from '@ct/contracts';
import type { JobHandler, QueueBackend } from '@ct/queue';
import { installQueueMetrics, prom } from '@ct/service-kit';
import type { FastifyBaseLogger } from 'fastify';

// Created once per process and registered into each app's registry by installWorkerMetrics (tests build
// several apps in one process; a metric may sit in several registries but only once in each).
const jobDuration = new prom.Histogram({
  name: 'college_ready_ingestion_job_duration_seconds',
  help: 'Time spent on one try of an ingestion job, by job name and outcome',
  labelNames: ['job', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300],
  registers: [],
});
const jobsTotal = new prom.Counter({
  name: 'college_ready_ingestion_jobs_total',
  help: 'Tries of ingestion jobs, by job name and outcome (ok, error, handed_back)',
  labelNames: ['job', 'outcome'] as const,
  registers: [],
});
const providerFailures = new prom.Counter({
  name: 'college_ready_ingestion_provider_failures_total',
  help: 'Failed calls to an outside data provider (scorecard, openai, ...), by provider and kind',
  labelNames: ['provider', 'kind'] as const,
  registers: [],
});
const providerDuration = new prom.Histogram({
  name: 'college_ready_ingestion_provider_request_duration_seconds',
  help: 'Latency of calls to outside data providers',
  labelNames: ['provider', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [],
});
const WORKER_METRICS: prom.Metric[] = [jobDuration, jobsTotal, providerFailures, providerDuration];

export type JobOutcome = 'ok' | 'error' | 'handed_back';

/** Records one try of a job: how long it took and how it ended (`true` = ok, `false` = error). */
export function recordJob(job: string, seconds: number, ok: boolean | JobOutcome): void {
  const outcome: JobOutcome = ok === true ? 'ok' : ok === false ? 'error' : ok;
  jobDuration.observe({ job, outcome }, seconds);
  jobsTotal.inc({ job, outcome });
}

/**
 * Records a failed call to a provider. `kind` is a short class of failure (`http_5xx`, `timeout`,
 * `invalid_response`, `rate_limited`, `not_configured`...), never a message with data in it.
 */
export function recordProviderFailure(provider: string, kind = 'error'): void {
  providerFailures.inc({ provider, kind });
}

/** Records a provider call's latency; a failed call also counts as a failure of `kind`. */
export function recordProviderCall(provider: string, seconds: number, ok: boolean, kind = 'error'): void {
  providerDuration.observe({ provider, outcome: ok ? 'ok' : 'error' }, seconds);
  if (!ok) recordProviderFailure(provider, kind);
}

/** Times `fn` as a call to `provider`, recording its latency and, if it throws, a failure. */
export async function timeProvider<T>(provider: string, fn: () => Promise<T>, kind = 'error'): Promise<T> {
  const started = performance.now();
  try {
    const value = await fn();
    recordProviderCall(provider, (performance.now() - started) / 1000, true);
    return value;
  } catch (err) {
    recordProviderCall(provider, (performance.now() - started) / 1000, false, kind);
    throw err;
  }
}

/**
 * The provider client with every method that returns a promise timed as a call to `provider` (`close`
 * excepted): the job handlers, in the services that own their tables, stay free of metrics.
 */
export function timed<T extends object>(provider: string, client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'close' || prop === 'constructor') return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(out instanceof Promise)) return out;
        return out.then(
          (v: unknown) => {
            recordProviderCall(provider, seconds(), true);
            return v;
          },
          (err: unknown) => {
            recordProviderCall(provider, seconds(), false);
            throw err;
          },
        );
      };
    },
  });
}

/**
 * Every queue of the product: the two the worker serves (which its autoscaler follows) and each
 * service's event queue (issue 45: the operators see every backlog, not only the ingestion queue's).
 */
export const EXPORTED_QUEUES: readonly string[] = [
  INGESTION_QUEUE,
  ESSAY_EXAMPLES_QUEUE,
  ...[...new Set(Object.values(EVENT_SUBSCRIBERS).flat())].map(eventQueueName),
];

/**
 * Adds the worker's metrics to a registry (the process's `app.metricsRegistry`), with the depth of every
 * queue per state as `college_ready_queue_jobs{queue,state}`, read from the queue at scrape ("waiting"
 * counts BullMQ's prioritized jobs too: the worker's KEDA trigger reads it).
 */
export function installWorkerMetrics(registry: prom.Registry, queue: QueueBackend): void {
  for (const m of WORKER_METRICS) {
    // prom-client's Metric type does not expose the name it was created with.
    const name = (m as unknown as { name: string }).name;
    if (!registry.getSingleMetric(name)) registry.registerMetric(m);
  }
  installQueueMetrics(registry, queue, EXPORTED_QUEUES);
}

/**
 * Wraps a job handler: logs its start and end with `reqId` (the request id the job was queued with, in
 * `job.data.requestId`: a service call a handler makes passes it on as `requestId`) and `jobId`, and
 * records its duration and outcome. A job handed back on shutdown counts as `handed_back`, not as an error.
 */
export function instrumentJobs<T>(handler: JobHandler<T>, log: FastifyBaseLogger): JobHandler<T> {
  return async (job) => {
    const reqId = (job.data as { requestId?: unknown } | null)?.requestId;
    const id = typeof reqId === 'string' && reqId ? reqId : undefined;
    const jobLog = log.child({ reqId: id, jobId: job.id, job: job.name, attempt: job.attemptsMade + 1 });
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    // Logged when it happens: a handler that ignores the signal may never settle before the process exits.
    let handedBack = false;
    const onAbort = () => {
      handedBack = true;
      recordJob(job.name, elapsed(), 'handed_back');
      jobLog.info('job handed back to the queue on shutdown');
    };
    job.signal?.addEventListener('abort', onAbort, { once: true });
    jobLog.info('job started');
    try {
      const result = await handler(job);
      if (!handedBack) {
        recordJob(job.name, elapsed(), true);
        jobLog.info({ durationMs: Math.round(elapsed() * 1000) }, 'job done');
      }
      return result;
    } catch (err) {
      if (!handedBack) {
        recordJob(job.name, elapsed(), false);
        jobLog.warn({ err, durationMs: Math.round(elapsed() * 1000) }, 'job try failed');
      }
      throw err;
    } finally {
      job.signal?.removeEventListener('abort', onAbort);
    }
  };
}
