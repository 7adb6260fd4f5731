import { TrackedJobs } from '@ct/jobs';
import type { ServiceContext } from '@ct/service-kit';
import type { EssaysConfig } from './config.ts';
import { examplesKind } from './jobs/examples.ts';
import { EssaysRepository } from './repositories/essays.ts';
import { StudentTraceRepository } from './repositories/students.ts';

/** What the essays service's routes and start-up share, built once (`deps` in app.ts). */
export interface EssaysDeps {
  ctx: ServiceContext<EssaysConfig>;
  repo: EssaysRepository;
  /** The service's tracked background work; its sweep starts with the service. */
  jobs: TrackedJobs;
  /** Example essays as tracked work (one request row per prompt text). */
  examples: ReturnType<typeof examplesKind>;
  /** What the schema keeps about an account, forgotten when it is deleted. */
  traces: StudentTraceRepository;
}

export function makeDeps(ctx: ServiceContext<EssaysConfig>): EssaysDeps {
  const repo = new EssaysRepository(ctx.db);
  const jobs = new TrackedJobs(ctx.queue, ctx.log);
  return {
    ctx,
    repo,
    jobs,
    examples: jobs.track(examplesKind(repo)),
    traces: new StudentTraceRepository(ctx.db),
  };
}
