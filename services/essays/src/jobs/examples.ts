import { ESSAY_EXAMPLES_QUEUE, WriteExampleEssaysJob } from '@ct/contracts';
import type { TrackedKind } from '@ct/jobs';
import type { EssaysRepository, ExampleRequestRow } from '../repositories/essays.ts';

/**
 * Example essays as tracked work: one request row per prompt text (one job, however many students ask),
 * given back by the sweep when the queue loses its job.
 */
export function examplesKind(
  repo: EssaysRepository,
): TrackedKind<typeof WriteExampleEssaysJob.schema, ExampleRequestRow> {
  return {
    job: WriteExampleEssaysJob,
    queue: ESSAY_EXAMPLES_QUEUE,
    attempts: 3,
    backoffMs: 2000,
    pending: (limit) => repo.pendingRequests(limit),
    find: (key) => repo.findRequest(key),
    giveUp: (key) => repo.giveUpRequest(key, 'Writing the examples was interrupted too many times.'),
    data: (req) => ({ promptKey: req.key }),
  };
}
