import { Outbox } from '@ct/jobs';
import type { ServiceContext } from '@ct/service-kit';
import type { CollegesConfig } from './config.ts';
import { collegesJobs } from './jobs/requests.ts';
import { MajorProfileRepository } from './majors/repository.ts';
import { AiBudget } from './repositories/ai-budget.ts';
import { AiShareRepository } from './repositories/ai-share.ts';
import { CollegeRepository } from './repositories/colleges.ts';
import { HeldFactRepository } from './repositories/held-facts.ts';
import { IngestionRepository } from './repositories/ingestion.ts';
import { ReviewRepository } from './repositories/reviews.ts';
import { StudentTraceRepository } from './repositories/students.ts';
import { CollegeDataReadiness } from './readiness.ts';
import { SuggestionIndex } from './suggestions.ts';

/**
 * What the colleges service's routes, use cases (`src/use-cases/`) and start-up share, built once
 * (`deps` in app.ts). Each use case names the part of it that it uses in its `.types.ts`.
 */
export interface CollegesDeps {
  ctx: ServiceContext<CollegesConfig>;
  /** The colleges schema: the transaction a use case's writes share. */
  db: ServiceContext['db'];
  /** Ingestion requests: one row per normalised name, with who asked. */
  requests: IngestionRepository;
  colleges: CollegeRepository;
  /** Colleges private to the students who asked for them, until an admin reviews them. */
  reviews: ReviewRepository;
  /** Facts about shared colleges no official page vouched for, private to who asked until reviewed. */
  held: HeldFactRepository;
  /** Names and aliases in memory for suggestions (kept in step with the table). */
  suggestions: SuggestionIndex;
  /** Whether the college data is loaded and the suggestion index built (the service's `/readyz`). */
  readiness: CollegeDataReadiness;
  /** Events written in the transaction of the change they announce; its relay starts with the service. */
  outbox: Outbox;
  /** The hourly circuit breaker on AI calls, shared by every worker. */
  budget: AiBudget;
  /** Each student's share of the hourly allowance: bookings of the AI work their requests start. */
  share: AiShareRepository;
  /** Whether an AI provider is configured (enrichment is queued only then). */
  aiConfigured: boolean;
  /** The service's tracked background work (college and major jobs); its sweep starts with the service. */
  work: ReturnType<typeof collegesJobs>;
  majors: MajorProfileRepository;
  /** What the schema keeps about an account, forgotten when it is deleted. */
  traces: StudentTraceRepository;
}

export function makeDeps(ctx: ServiceContext<CollegesConfig>): CollegesDeps {
  const { config } = ctx;
  return {
    ctx,
    db: ctx.db,
    requests: new IngestionRepository(ctx.db),
    colleges: new CollegeRepository(ctx.db),
    reviews: new ReviewRepository(ctx.db),
    held: new HeldFactRepository(ctx.db),
    suggestions: new SuggestionIndex(ctx.db),
    readiness: new CollegeDataReadiness(),
    outbox: collegesOutbox(ctx),
    budget: new AiBudget(ctx.db, config.AI_CALLS_PER_HOUR),
    share: new AiShareRepository({
      perHour: config.AI_CALLS_PER_HOUR,
      studentPercent: config.AI_STUDENT_SHARE_PERCENT,
      reservePercent: config.AI_FIRST_REQUEST_RESERVE_PERCENT,
    }),
    aiConfigured: Boolean(config.OPENAI_API_KEY),
    work: collegesJobs(ctx),
    majors: new MajorProfileRepository(ctx.db),
    traces: new StudentTraceRepository(ctx.db),
  };
}

/** The colleges schema's outbox, for the service and for its job module in the worker alike. */
export function collegesOutbox(ctx: Pick<ServiceContext, 'db' | 'bus' | 'log'>): Outbox {
  return new Outbox(ctx.db, ctx.bus, ctx.log, 'colleges');
}
