/**
 * What the essays service says to students and admins, where the spec gives no wording (spec wording,
 * MSG in packages/contracts, is used wherever it gives one).
 */
export const ESSAYS_MSG = {
  /** Why the Common App and UC prompts could not be gathered (the job's failure). */
  noAiProvider: 'No AI provider is configured',
  collegesFound: 'Colleges found',
  promptsFound: 'Prompts found',
  promptGroupsFound: 'Prompt groups found',
  essaysFound: 'Essays found',
  writingExamples: 'Writing example essays for this prompt',
  /** Writing failed for good this time; a request after a few minutes tries again. */
  examplesFailed: (reason: string | null) =>
    `We could not write example essays for this prompt right now` +
    (reason ? `: ${reason.replace(/\.$/, '')}` : '') +
    '. Please try again in a few minutes.',
  collegesUnavailableForGroups:
    'Your colleges could not be loaded right now, so prompts cannot be grouped. Please try again later.',
  collegesUnavailableForPrompts:
    'Your colleges could not be loaded right now, so their prompts cannot be shown. Please try again later.',
  /** The colleges service's name resolver did not answer. */
  collegesUnavailable: 'Colleges could not be looked up right now. Please try again later.',
  promptUnknown: 'That prompt is not one of the prompts we have for any college',
  exampleAdded: 'Example essay added',
  /** What every example carries with it, wherever it is shown. */
  exampleLabel: {
    ai: "Example essay written by AI for this prompt. It is not a real applicant's essay.",
    admin: "Example essay added by our team for this prompt. It is not a real applicant's essay.",
  },
  malformedEvent: (name: string) => `${name} event with an unexpected shape`,
} as const;
