import { collegesJobModule } from '@ct/colleges/jobs/worker';
import { essaysJobModule } from '@ct/essays/jobs/worker';
import { ESSAY_EXAMPLES_QUEUE, INGESTION_QUEUE } from '@ct/contracts';
import type { JobModule } from '@ct/jobs';
import type { ConsumeOptions } from '@ct/queue';
import { defineService } from '@ct/service-kit';
import { aiLimiter, providerLimiter, WorkerConfig } from './config.ts';
import { createProviders } from './deps.ts';
import { installWorkerMetrics, instrumentJobs } from './metrics.ts';

/**
 * The ingestion worker: the deployable operators scale (compose, k8s with KEDA, `RUN_WORKER` embedded).
 * It is made of the services' job modules: the colleges service's (the `ingestion` queue: colleges,
 * majors) and the essays service's (the `essays.examples` queue: example essays, platform prompts). Each
 * module's handlers write only their own service's schema, through that service's repositories; the
 * worker adds the providers, the queue limits and the metrics, and owns no tables itself.
 */
export default defineService({
  name: 'ingestion-worker',
  schema: null,
  migrationsDir: null,
  config: WorkerConfig,
  // The providers and the job modules, built once.
  deps: async (ctx) => {
    const providers = await createProviders(ctx);
    return {
      ctx,
      providers,
      modules: [collegesJobModule(ctx, providers), essaysJobModule(ctx, providers)],
    };
  },
  routes: () => [],
  async plugin(app, { ctx }) {
    installWorkerMetrics(app.metricsRegistry, ctx.queue);
  },
  async start({ ctx, providers, modules }) {
    const { config } = ctx;
    const options: Record<string, ConsumeOptions> = {
      [INGESTION_QUEUE]: { concurrency: config.INGESTION_CONCURRENCY, limiter: providerLimiter(config) },
      [ESSAY_EXAMPLES_QUEUE]: { concurrency: config.ESSAY_EXAMPLES_CONCURRENCY, limiter: aiLimiter(config) },
    };
    for (const m of modules) consume(m, options[m.queue] ?? { concurrency: 1 });
    function consume(m: JobModule, opts: ConsumeOptions) {
      const consumer = ctx.queue.process(m.queue, instrumentJobs(m.run, ctx.log), opts);
      ctx.onClose(() => consumer.close());
    }
    ctx.log.info(
      {
        concurrency: config.INGESTION_CONCURRENCY,
        queues: modules.map((m) => `${m.queue} (${m.service})`),
        scorecard: providers.scorecard ? 'configured' : 'no key',
        ai: config.OPENAI_API_KEY ? config.OPENAI_MODEL : 'no key',
        localDeadlines: providers.localDeadlines?.size ?? 0,
      },
      'ingestion worker started',
    );
  },
});
