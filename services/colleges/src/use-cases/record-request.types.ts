import type { CollegesDeps } from '../deps.ts';
import type { StoredRequest } from '../repositories/ingestion.ts';

/** What recording a request and booking its AI work read and write. */
export type RecordRequestDeps = Pick<CollegesDeps, 'ctx' | 'requests' | 'share' | 'aiConfigured'>;

/** One ask for a college's gathering, inside the asker's transaction. */
export interface RecordRequestInput {
  key: string;
  /** The name asked for (a stored college's official name, for its enrichment) */
  name: string;
  /** The institution the job gathers, when the college is stored already */
  scorecardId: number | null;
  /** Gather a finished request again (a stored college still without its facts) */
  requeueDone: boolean;
  uid: string | null;
  /** How the student is recorded among its requesters, from whether the row is new or requeued */
  role(newRow: boolean): 'new-name' | 'joined' | 'enrichment';
  /** The queue priority of its class (`PRIORITY`) */
  priority: number;
}

/** The row booked, whether it needs its job, and the job's priority. */
export interface RecordedRequest {
  request: StoredRequest;
  enqueue: boolean;
  priority: number;
}
