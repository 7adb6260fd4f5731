import { INGESTION_QUEUE, JOBS } from '@ct/contracts';
import { jobModule, type JobModule } from '@ct/jobs';
import {
  ProviderError,
  type AiClient,
  type CommonAppGrid,
  type JobProviders,
  type ScorecardClient,
} from '@ct/providers';
import type { ServiceContext } from '@ct/service-kit';
import type { CollegesJobConfig } from '../config.ts';
import { collegesOutbox } from '../deps.ts';
import { MajorProfileRepository } from '../majors/repository.ts';
import { TRUST_MSG } from '../messages.ts';
import { AiBudget } from '../repositories/ai-budget.ts';
import { CollegeRepository } from '../repositories/colleges.ts';
import { HeldFactRepository } from '../repositories/held-facts.ts';
import { IngestionRepository } from '../repositories/ingestion.ts';
import { ReviewRepository } from '../repositories/reviews.ts';
import type { PlaceCollegeDeps } from '../use-cases/place-college.types.ts';
import { collegeJob } from './gather-college.ts';
import { majorJob } from './major.ts';

/**
 * What the colleges service's job handlers use: its own repositories (its schema only), what placing a
 * gathered college writes (`placeCollege`), and the providers.
 */
export interface CollegeJobDeps extends PlaceCollegeDeps {
  majors: MajorProfileRepository;
  /** Tries per request (the row counts them) */
  attempts: number;
  log: ServiceContext['log'];
  scorecard: ScorecardClient | null;
  /** Counted against the hourly limit every worker shares (`AI_CALLS_PER_HOUR`) */
  ai: AiClient | null;
  localDeadlines: CommonAppGrid | null;
}

/**
 * The colleges service's jobs (the `ingestion` queue: colleges and majors), bound to its repositories.
 * The ingestion worker builds this with its context (the store, the queue, the colleges settings) and
 * the providers; the handlers write the colleges schema only, each result, its request row and its
 * outbox event in one transaction.
 */
export function collegesJobModule(
  ctx: ServiceContext<CollegesJobConfig>,
  providers: JobProviders,
): JobModule {
  const budget = new AiBudget(ctx.db, ctx.config.AI_CALLS_PER_HOUR);
  const deps: CollegeJobDeps = {
    db: ctx.db,
    requests: new IngestionRepository(ctx.db),
    colleges: new CollegeRepository(ctx.db),
    reviews: new ReviewRepository(ctx.db),
    held: new HeldFactRepository(ctx.db),
    outbox: collegesOutbox(ctx),
    majors: new MajorProfileRepository(ctx.db),
    attempts: ctx.config.INGESTION_ATTEMPTS,
    log: ctx.log,
    scorecard: providers.scorecard,
    ai: providers.openAi(() => takeAiCall(budget, ctx.log)),
    localDeadlines: providers.localDeadlines,
  };
  return jobModule({
    service: 'colleges',
    queue: INGESTION_QUEUE,
    declared: JOBS,
    handlers: [collegeJob, majorJob],
    deps,
  });
}

/** Counts one AI call against the hourly limit; refuses the call (a pause the job names) when it is spent. */
async function takeAiCall(budget: AiBudget, log: ServiceContext['log']): Promise<void> {
  if (await budget.take()) return;
  log.warn('hourly limit on AI calls reached');
  throw new ProviderError('openai', 'paused', TRUST_MSG.aiLimitDetail);
}
