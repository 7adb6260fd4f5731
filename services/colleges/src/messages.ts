/** What the colleges service tells students and admins about trust, limits and enrichment. */
export const TRUST_MSG = {
  /** The one line shown on a college card when no AI provider is configured. */
  needsAiKey:
    "Deadlines, essay prompts and requirements from the college's own pages need an AI key (OPENAI_API_KEY); official figures are from the College Scorecard.",
  gathering: "Gathering deadlines, essay prompts and requirements from the college's own pages...",
  paused:
    "Deadlines, essay prompts and requirements from the college's own pages will be gathered later: we have reached this hour's limit on AI lookups.",
  /** What a student reads when the hourly limit on AI calls is spent and they ask for a new name. */
  aiLimit:
    'We have looked up as many new colleges as we can this hour. Please try again in an hour; colleges already listed can be searched now.',
  /** The worker's failure detail (after "The AI provider ") when the hourly limit is spent. */
  aiLimitDetail: "is paused for now: this hour's limit on AI lookups has been reached",
  dailyQuota: (n: number) =>
    `You have asked for ${n} new college names today, the most one student can ask for in a day. Please try again tomorrow; colleges already listed can be searched now.`,
  removedByAdmin:
    'An admin reviewed what was found for this name and removed it, because no college could be confirmed under it.',
  notFound: (name: string) => `We have no data for "${name}" yet. Use Add College to gather it.`,
} as const;

/** Replies of the colleges service's public routes. */
export const COLLECTION_MSG = {
  statsFound: 'Collection stats found',
} as const;
