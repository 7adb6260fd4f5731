import { ESSAY_EXAMPLES_QUEUE, ESSAY_JOBS } from '@ct/contracts';
import { jobModule, type JobModule } from '@ct/jobs';
import type { AiClient, JobProviders } from '@ct/providers';
import type { ServiceContext } from '@ct/service-kit';
import type { EssaysConfig } from '../config.ts';
import { EssaysRepository } from '../repositories/essays.ts';
import { platformPromptsJob } from './gather-platform-prompts.ts';
import { essayExamplesJob } from './write-examples.ts';

/** What the essays service's job handlers use: its own repository (its schema only) and the AI provider. */
export interface EssayJobDeps {
  repo: EssaysRepository;
  log: ServiceContext['log'];
  /** The AI provider for writing (not counted against the hourly limit on college lookups) */
  writer: AiClient | null;
}

/**
 * The essays service's jobs (the `essays.examples` queue: example essays, platform prompts), bound to its
 * repository. The ingestion worker builds this with its context and the providers.
 */
export function essaysJobModule(ctx: ServiceContext<EssaysConfig>, providers: JobProviders): JobModule {
  return jobModule<EssayJobDeps>({
    service: 'essays',
    queue: ESSAY_EXAMPLES_QUEUE,
    declared: ESSAY_JOBS,
    handlers: [essayExamplesJob, platformPromptsJob],
    deps: { repo: new EssaysRepository(ctx.db), log: ctx.log, writer: providers.openAi() },
  });
}
