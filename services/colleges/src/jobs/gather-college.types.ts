import type { College, CollegeFactsAnswer } from '@ct/contracts';
import type { Gathered, GovernmentData, HeldFact, ProviderError } from '@ct/providers';

/** What is known about the college before asking: from the College Scorecard, or the cached college. */
export interface KnownCollege {
  name: string;
  city: string | null;
  state: string | null;
  /** The official website (College Scorecard): the only domain whose pages put facts in the shared record */
  website: string | null;
}

/** Step 1: what the College Scorecard gave, or why it gave nothing. */
export interface GovernmentRead {
  gov: GovernmentData | null;
  /** Other institutions sharing its official name (they are told apart by place) */
  sameName: number;
  /** Why there is no government data (a clause of the document's `missing` list) */
  reason?: string;
  /** The provider's failure, when one stopped it (a try that another could fix was thrown again) */
  failure: ProviderError | null;
  /** The stored college whose government data made a Scorecard call needless (it stays as stored) */
  stored?: College;
}

/** Step 2: what the college's own pages gave through the AI provider, screened, or why nothing. */
export interface PagesRead {
  facts: Gathered<CollegeFactsAnswer> | null;
  /** Why there are no college facts (a clause of the document's `missing` list) */
  reason?: string;
  failure: ProviderError | null;
  /** Facts of the answer no official page vouched for: private to who asked, for review */
  held: HeldFact[];
}
