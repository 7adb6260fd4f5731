// Rows and stored records become API shapes here: the requests students and admins see, the admin's
// college listing and review list. (A college itself is stored as the document the API serves.)
import type { College, CollegeReview, IngestionRequest } from '@ct/contracts';
import type { CollegeListRow } from './repositories/colleges.ts';
import type { StoredRequest } from './repositories/ingestion.ts';
import type { PrivateCollege } from './repositories/reviews.ts';

/** A request as the API shows it: without the Scorecard id its job may carry. */
export function presentRequest(r: StoredRequest): IngestionRequest {
  const { scorecardId: _sid, ...rest } = r;
  return rest;
}

/** A finished request for a college that is already stored (asked for now, or never asked for at all). */
export function presentDoneRequest(
  key: string,
  name: string,
  college: College,
  existing: IngestionRequest | null,
): IngestionRequest {
  const now = new Date().toISOString();
  return {
    key,
    name,
    state: 'done',
    stage: 'done',
    attempts: existing?.attempts ?? 0,
    failureReason: null,
    lastError: null,
    collegeName: college.name,
    requestedAt: existing?.requestedAt ?? college.createdAt ?? now,
    updatedAt: college.updatedAt ?? now,
  };
}

/** A line of the admin's college listing; the whole document only when asked for. */
export const presentCollegeListItem = (r: CollegeListRow) => ({
  id: Number(r.id),
  name: r.name,
  city: r.city,
  state: r.state,
  createdAt: r.createdAt,
  ...(r.document ? { data: r.document } : {}),
});

/** A college waiting for an admin's review, with the students who asked for it. */
export const presentReview = (p: PrivateCollege & { viewers: string[] }): CollegeReview => ({
  id: p.id,
  name: p.name,
  requestedName: p.requestedName,
  website: p.website,
  reason: p.reason,
  requestedBy: p.viewers,
  createdAt: p.createdAt,
  data: p.document,
});
