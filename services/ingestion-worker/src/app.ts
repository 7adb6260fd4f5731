import { INGESTION_QUEUE } from '@ct/contracts';
import { defineService, registerRoutes } from '@ct/service-kit';
import { providerLimiter, WorkerConfig } from './config.ts';
import { createDeps } from './deps.ts';
import { collegeJob } from './jobs/college.ts';
import { majorJob } from './jobs/major.ts';
import { installWorkerMetrics, instrumentJobs } from './metrics.ts';
import { createRegistry } from './registry.ts';

/** Every job the worker runs, by name; the registry checks this list against the contracts' JOBS. */
export const JOB_HANDLERS = [collegeJob, majorJob];

/**
 * The ingestion worker: consumes the ingestion queue and gathers data from the outside providers. It owns
 * no tables; it reports to the colleges service through its internal routes.
 */
export default defineService({
  name: 'ingestion-worker',
  schema: null,
  migrationsDir: null,
  config: WorkerConfig,
  async plugin(app, ctx) {
    registerRoutes(app, ctx, []);
    installWorkerMetrics(app.metricsRegistry, ctx.queue);
  },
  async start(ctx) {
    const { config } = ctx;
    const dispatch = createRegistry(JOB_HANDLERS);
    const deps = await createDeps(ctx);
    const consumer = ctx.queue.process(
      INGESTION_QUEUE,
      instrumentJobs((job) => dispatch(job, deps), ctx.log),
      { concurrency: config.INGESTION_CONCURRENCY, limiter: providerLimiter(config) },
    );
    ctx.onClose(() => consumer.close());
    ctx.log.info(
      {
        concurrency: config.INGESTION_CONCURRENCY,
        scorecard: deps.scorecard ? 'configured' : 'no key',
        ai: deps.ai ? config.OPENAI_MODEL : 'no key',
        localDeadlines: deps.localDeadlines?.size ?? 0,
      },
      'ingestion worker started',
    );
  },
});
