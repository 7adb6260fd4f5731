import type { College } from '@ct/contracts';
import type { HeldFact } from '@ct/providers';
import type { CollegesDeps } from '../deps.ts';

/**
 * What placing a gathered college writes, in one transaction: the college (shared, or kept for review),
 * its held facts, its request row and its event in the outbox. The service and its job module in the
 * ingestion worker build it alike.
 */
export type PlaceCollegeDeps = Pick<
  CollegesDeps,
  'db' | 'requests' | 'colleges' | 'reviews' | 'held' | 'outbox'
>;

/** What the job gathered for one request. */
export interface GatheredCollege {
  /** The request's key (the normalised name asked for) */
  key: string;
  college: College;
  /** Whether facts from the college's own pages are in it (else government data only) */
  factsGathered: boolean;
  /** The official website the AI answer gave (a review item shows it to the admin) */
  officialWebsite?: string | null;
  /** Facts of the answer no official page vouched for (`screenAnswer`): private to who asked */
  held?: readonly HeldFact[];
}
