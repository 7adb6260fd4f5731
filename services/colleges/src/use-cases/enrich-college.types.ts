import type { CollegesDeps } from '../deps.ts';
import type { CollegeHit } from '../repositories/colleges.ts';
import type { RecordRequestDeps } from './record-request.types.ts';

/** What asking for a stored college's own pages reads and writes. */
export type EnrichCollegeDeps = RecordRequestDeps & Pick<CollegesDeps, 'db' | 'budget' | 'work'>;

/** A stored college a student added, and who they are. */
export interface EnrichCollegeInput {
  hit: CollegeHit;
  /** Who asks: their daily quota of enrichments and share of the AI allowance are counted. */
  uid: string | null;
  /** The HTTP request's id, carried by the job into the worker's logs. */
  requestId?: string;
}
