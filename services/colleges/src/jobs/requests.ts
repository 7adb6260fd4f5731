import { IngestCollegeJob, IngestMajorJob, INGESTION_QUEUE } from '@ct/contracts';
import { TrackedJobs } from '@ct/jobs';
import type { ServiceContext } from '@ct/service-kit';
import type { CollegesConfig } from '../config.ts';
import { IngestionRepository } from '../repositories/ingestion.ts';
import { MajorProfileRepository } from '../majors/repository.ts';
import { GATHER_MSG } from '../messages.ts';

/**
 * Queue priorities (lower first). A student waiting for a result (a new name, a major profile) goes
 * ahead of background enrichment of a college already shown; within each, a student's job goes back
 * one place for each of their own requests still waiting, so one busy student delays another's first
 * result by at most one job (fair, not starving: each student's own requests keep their order).
 */
export const PRIORITY = { explicit: 1, background: 10_000 } as const;

/**
 * The background work the colleges service asks for: a college's data (ingestion requests) and a major's
 * profile at a college. Both run in the ingestion worker, with the same tries and backoff.
 */
export function collegesJobs(ctx: ServiceContext<CollegesConfig>) {
  const jobs = new TrackedJobs(ctx.queue, ctx.log);
  const requests = new IngestionRepository(ctx.db);
  const profiles = new MajorProfileRepository(ctx.db);
  const retry = { attempts: ctx.config.INGESTION_ATTEMPTS, backoffMs: ctx.config.INGESTION_BACKOFF_MS };
  const college = jobs.track({
    job: IngestCollegeJob,
    queue: INGESTION_QUEUE,
    ...retry,
    pending: (limit) => requests.pending(limit),
    find: (key) => requests.get(key),
    giveUp: (key) => requests.fail(key, GATHER_MSG.interrupted, true),
    // Re-enqueued by the sweep: a name someone waits for ahead of a known college's enrichment.
    priority: (r) => (r.scorecardId === null ? PRIORITY.explicit : PRIORITY.background),
    // Booked into a later hour of the AI allowance: the job waits for it, also when the sweep gives it back.
    delayMs: (r) => (r.waitingUntil ? Date.parse(r.waitingUntil) - Date.now() : 0),
    data: (r) => ({
      key: r.key,
      name: r.name,
      ...(r.scorecardId !== null ? { scorecardId: r.scorecardId } : {}),
    }),
  });
  const major = jobs.track({
    job: IngestMajorJob,
    queue: INGESTION_QUEUE,
    ...retry,
    pending: (limit) => profiles.listPending(limit),
    find: (key) => profiles.findProfile(key),
    giveUp: (key) => profiles.giveUp(key, GATHER_MSG.majorInterrupted),
    data: (r) => ({ key: r.key, collegeName: r.collegeName, major: r.major, cip: r.cip }),
  });
  return { jobs, college, major };
}
