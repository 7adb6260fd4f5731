import {
  internalDecideFact,
  internalListFactReviews,
  internalApproveCollege,
  internalDeleteCollege,
  internalListCollegeReviews,
  internalMergeCollege,
} from '@ct/contracts';
import { implement, type Implementation } from '@ct/service-kit';
import { Curation } from '../curation.ts';
import type { CollegesDeps } from '../deps.ts';
import { presentReview } from '../presenters.ts';

/** The admin's review list and decisions on colleges. */
export function reviewRoutes(deps: CollegesDeps): Implementation[] {
  const curation = new Curation(deps);
  return [
    implement(internalListCollegeReviews, async (request) => {
      const page = await deps.reviews.list(request.query.limit ?? 50, request.query.offset ?? 0);
      return { total: page.total, items: page.rows.map(presentReview) };
    }),

    implement(internalApproveCollege, async (request) => curation.approve(request.body.collegeId)),

    implement(internalMergeCollege, async (request) => {
      const { kind, collegeId, into } = request.body;
      return curation.merge(kind, collegeId, into);
    }),

    implement(internalDeleteCollege, async (request) =>
      curation.delete(request.body.kind, request.body.collegeId),
    ),

    implement(internalListFactReviews, async (request) =>
      deps.held.list(request.query.limit ?? 50, request.query.offset ?? 0),
    ),

    implement(internalDecideFact, async (request) =>
      curation.decideFact(request.body.factId, request.body.decision),
    ),
  ];
}
