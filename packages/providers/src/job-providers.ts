import type { CommonAppGrid } from './common-app-grid.ts';
import type { AiClient } from './openai.ts';
import type { ScorecardClient } from './scorecard.ts';

/**
 * The outside providers the ingestion worker builds once, from its settings, and hands to every
 * service's job module (each call timed in the worker's metrics). Null where not configured.
 */
export interface JobProviders {
  /** The College Scorecard API, or null without SCORECARD_API_KEY */
  scorecard: ScorecardClient | null;
  /**
   * An OpenAI Responses API client (web search, strict JSON), or null without OPENAI_API_KEY; `budget`
   * runs before each call and throws to refuse it.
   */
  openAi(budget?: () => Promise<void>): AiClient | null;
  /** The Common App requirements grid (shipped, or the operator's), or null when turned off */
  localDeadlines: CommonAppGrid | null;
}
