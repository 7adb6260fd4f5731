import { ESSAY_EXAMPLES_QUEUE, ESSAY_JOBS, INGESTION_QUEUE, JOBS } from '@ct/contracts';
import type { ConsumeOptions } from '@ct/queue';
import { defineService } from '@ct/service-kit';
import { aiLimiter, providerLimiter, WorkerConfig } from './config.ts';
import { createDeps } from './deps.ts';
import { collegeJob } from './jobs/college.ts';
import { essayExamplesJob } from './jobs/essay-examples.ts';
import { majorJob } from './jobs/major.ts';
import { platformPromptsJob } from './jobs/platform-prompts.ts';
import { installWorkerMetrics, instrumentJobs } from './metrics.ts';
import { createRegistry } from './registry.ts';

/** Every job the worker runs, by name; the registry checks this list against the contracts' JOBS. */
export const JOB_HANDLERS = [collegeJob, majorJob];
/** The essays queue's jobs, checked against the contracts' ESSAY_JOBS. */
export const ESSAY_JOB_HANDLERS = [essayExamplesJob, platformPromptsJob];

/**
 * The ingestion worker runs every job kind: it consumes the ingestion queue (colleges, majors) and the
 * essays queue (example essays, platform prompts) and gathers data from the outside providers. It owns no
 * tables; it reports to the colleges and essays services through their internal routes.
 */
export default defineService({
  name: 'ingestion-worker',
  schema: null,
  migrationsDir: null,
  config: WorkerConfig,
  // The providers and the Common App grid, built once; the handlers get them with each job.
  deps: async (ctx) => ({ ctx, worker: await createDeps(ctx) }),
  routes: () => [],
  async plugin(app, { ctx }) {
    installWorkerMetrics(app.metricsRegistry, ctx.queue);
  },
  async start({ ctx, worker: deps }) {
    const { config } = ctx;
    const consume = (queue: string, dispatch: ReturnType<typeof createRegistry>, opts: ConsumeOptions) => {
      const consumer = ctx.queue.process(
        queue,
        instrumentJobs((job) => dispatch(job, deps), ctx.log),
        opts,
      );
      ctx.onClose(() => consumer.close());
    };
    consume(INGESTION_QUEUE, createRegistry(JOB_HANDLERS, JOBS), {
      concurrency: config.INGESTION_CONCURRENCY,
      limiter: providerLimiter(config),
    });
    consume(ESSAY_EXAMPLES_QUEUE, createRegistry(ESSAY_JOB_HANDLERS, ESSAY_JOBS), {
      concurrency: config.ESSAY_EXAMPLES_CONCURRENCY,
      limiter: aiLimiter(config),
    });
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
