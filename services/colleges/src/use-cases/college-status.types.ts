import type { CollegesDeps } from '../deps.ts';

/** What the card's enrichment line reads. */
export type EnrichmentStatusDeps = Pick<CollegesDeps, 'requests' | 'budget' | 'aiConfigured'>;

/** What the request's status (the overlay's poll) reads. */
export type RequestStatusDeps = Pick<CollegesDeps, 'requests' | 'reviews' | 'colleges'>;

/** A name a student waits for, and who they are (a result kept privately is news to its viewers only). */
export interface RequestStatusInput {
  name: string;
  uid: string | null;
}
