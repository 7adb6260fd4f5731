import { internalIngestionOverview, internalRetryIngestion, INGESTION_QUEUE } from '@ct/contracts';
import { AppError, implement, type Implementation } from '@ct/service-kit';
import type { CollegesDeps } from '../deps.ts';
import { COLLEGES_MSG } from '../messages.ts';
import { presentRequest } from '../presenters.ts';

/** The admin's view and retry of ingestion requests. */
export function ingestionRoutes({ ctx, requests, work }: CollegesDeps): Implementation[] {
  return [
    implement(internalIngestionOverview, async (request) => {
      const limit = request.query.limit ?? 50;
      const offset = request.query.offset ?? 0;
      const [queue, lists] = await Promise.all([
        ctx.queue.counts(INGESTION_QUEUE),
        requests.overview(limit, offset),
      ]);
      return {
        queue,
        running: lists.running.map(presentRequest),
        failed: lists.failed.map(presentRequest),
        totalFailed: lists.totalFailed,
      };
    }),

    implement(internalRetryIngestion, async (request) => {
      const r = await requests.retry(request.body.key);
      if (r === 'not-found') throw new AppError('NOT_FOUND', COLLEGES_MSG.noRequest(request.body.key));
      if (r === 'not-failed') throw new AppError('CONFLICT', COLLEGES_MSG.onlyFailedRetried);
      // Its job again; joins the job if it is still waiting or running.
      await work.jobs.enqueue(work.college, r, request.id);
      return { request: presentRequest(r) };
    }),
  ];
}
