import type { IngestionRequest } from '@ct/contracts';
import type { CollegesDeps } from '../deps.ts';
import type { EnrichCollegeDeps } from './enrich-college.types.ts';

/** What asking for a college reads and writes (and, for a stored college, asking for its own pages). */
export type RequestCollegeDeps = EnrichCollegeDeps & Pick<CollegesDeps, 'colleges' | 'reviews'>;

/** A student's (or, with no uid, another service's) ask for a college by the name typed. */
export interface RequestCollegeInput {
  name: string;
  /** Who asks: their quota and share of the AI allowance are counted; null asks as no one. */
  uid: string | null;
  /** The HTTP request's id, carried by the job into the worker's logs. */
  requestId?: string;
}

/** 200: found (or failed recently, with its reason); 202: the request waits or runs. */
export interface RequestCollegeResult {
  status: 200 | 202;
  request: IngestionRequest;
}
