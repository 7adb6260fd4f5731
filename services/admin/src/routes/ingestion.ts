import {
  adminIngestion,
  adminRetryIngestion,
  internalIngestionOverview,
  internalRetryIngestion,
} from '@ct/contracts';
import { implement, requireUser, type Implementation, type ServiceContext } from '@ct/service-kit';
import { ADMIN_MSG } from '../messages.ts';
import { askOwner, fromOwners } from './owners.ts';

/** The Ingestion section: queue depth, running and failed requests, and the page's only write, Retry. */
export function ingestionRoutes(ctx: ServiceContext): Implementation[] {
  return [
    implement(adminIngestion, async (request) => {
      const q = request.query;
      const [ingestion] = await fromOwners([
        askOwner(ctx, internalIngestionOverview, {
          query: { limit: q.limit, offset: q.offset },
          requestId: request.id,
        }),
      ] as const);
      return { success: true, ingestion };
    }),

    implement(adminRetryIngestion, async (request) => {
      const adminUid = requireUser(request);
      const [r] = await fromOwners([
        // 404 (no such request) and 409 (not failed) carry the colleges service's own explanation.
        askOwner(
          ctx,
          internalRetryIngestion,
          { body: { key: request.body.key }, auth: request.auth, requestId: request.id },
          [404, 409],
        ),
      ] as const);
      // A write by a person: keep who did it in the log.
      ctx.log.info({ adminUid, key: r.request.key }, 'admin retried an ingestion request');
      return {
        success: true,
        message: ADMIN_MSG.retryQueued(r.request.name),
        request: r.request,
      };
    }),
  ];
}
