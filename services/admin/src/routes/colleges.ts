import {
  adminApproveCollege,
  adminCollegeReviews,
  adminDeleteCollege,
  adminMergeCollege,
  internalApproveCollege,
  internalDeleteCollege,
  internalListCollegeReviews,
  internalMergeCollege,
} from '@ct/contracts';
import { implement, requireUser, type Implementation, type ServiceContext } from '@ct/service-kit';
import { ADMIN_MSG } from '../messages.ts';
import { askOwner, fromOwners } from './owners.ts';

/**
 * The College review section: colleges no government record confirms (private to the students who asked)
 * with Approve, Merge and Delete, and Merge and Delete of any shared college. The colleges service
 * decides and records; this service checks the admin and keeps who did what in the log.
 */
export function collegeRoutes(ctx: ServiceContext): Implementation[] {
  return [
    implement(adminCollegeReviews, async (request) => {
      const q = request.query;
      const [r] = await fromOwners([
        askOwner(ctx, internalListCollegeReviews, {
          query: { limit: q.limit, offset: q.offset },
          requestId: request.id,
        }),
      ] as const);
      return { success: true, total: r.total, reviews: r.items };
    }),

    implement(adminApproveCollege, async (request) => {
      const adminUid = requireUser(request);
      const { collegeId } = request.body;
      const [r] = await fromOwners([
        askOwner(ctx, internalApproveCollege, { body: { collegeId }, requestId: request.id }, [404, 409]),
      ] as const);
      ctx.log.info({ adminUid, collegeId, college: r.name }, 'admin approved a college');
      return { success: true, message: ADMIN_MSG.approved(r.name) };
    }),

    implement(adminMergeCollege, async (request) => {
      const adminUid = requireUser(request);
      const { kind, collegeId, into } = request.body;
      const [r] = await fromOwners([
        askOwner(
          ctx,
          internalMergeCollege,
          { body: { kind, collegeId, into }, requestId: request.id },
          [404],
        ),
      ] as const);
      ctx.log.info({ adminUid, kind, collegeId, college: r.name, into: r.into }, 'admin merged a college');
      return { success: true, message: ADMIN_MSG.merged(r.name, r.into) };
    }),

    implement(adminDeleteCollege, async (request) => {
      const adminUid = requireUser(request);
      const { kind, collegeId } = request.body;
      const [r] = await fromOwners([
        askOwner(ctx, internalDeleteCollege, { body: { kind, collegeId }, requestId: request.id }, [404]),
      ] as const);
      ctx.log.info({ adminUid, kind, collegeId, college: r.name }, 'admin deleted a college');
      return { success: true, message: ADMIN_MSG.deleted(r.name) };
    }),
  ];
}
