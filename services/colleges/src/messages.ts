import { LIMITS } from '@ct/contracts/limits';

/** An hour as students read it in these messages: "14:00 UTC". */
const hourOf = (iso: string) => `${iso.slice(11, 16)} UTC`;

/** One sentence from a provider error's message (already readable): ends with a full stop. */
export const asSentence = (s: string) => (s.endsWith('.') ? s : `${s}.`);

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
  /** A request waiting for a later hour's share of the AI allowance (the card's line). */
  waitingForHour: (at: string) =>
    `Waiting for a later hour: this hour's AI lookups for you are used up, so deadlines, essay prompts and requirements will be gathered from ${hourOf(at)}.`,
  /** A Scorecard college whose own pages nobody asked to read yet (adding it to a list asks). */
  notAsked:
    "Deadlines, essay prompts and requirements from the college's own pages have not been gathered yet; adding this college gathers them.",
  /** The worker's failure detail (after "The AI provider ") when the hourly limit is spent. */
  aiLimitDetail: "is paused for now: this hour's limit on AI lookups has been reached",
  dailyQuota: (n: number) =>
    `You have asked for ${n} new college names today, the most one student can ask for in a day. Please try again tomorrow; colleges already listed can be searched now.`,
  majorQuota: (n: number) =>
    `You have asked for ${n} new major profiles today, the most one student can ask for in a day. Please try again tomorrow; profiles already gathered can be opened now.`,
  removedByAdmin:
    'An admin reviewed what was found for this name and removed it, because no college could be confirmed under it.',
  notFound: (name: string) => `We have no data for "${name}" yet. Use Add College to gather it.`,
  /** Not found, but a listed college is close to what was typed. */
  didYouMean: (name: string, suggestion: string) =>
    `We have no data for "${name}" yet. Did you mean "${suggestion}"?`,
  /** Why a name no government record confirms waits for an admin, even when its website looks right. */
  noGovernmentRecord:
    'No College Scorecard record confirms this college, so an admin checks it before other students see it.',
  factGone: (id: number) => `There is no fact waiting for review with id ${id}.`,
} as const;

/** Everything else the colleges service says to students and admins (spec wording, MSG, where it gives one). */
export const COLLEGES_MSG = {
  nameMissing: 'Please enter the name of a college.',
  nameWithoutLetters: 'Invalid request: the college name must contain letters or digits',
  gathering: (name: string) => `We are gathering "${name}" now.`,
  waitingForHour: (name: string, at: string) =>
    `"${name}" is waiting: this hour's AI lookups for you are used up, so we will gather it from ${hourOf(at)}.`,
  gatheringFailed: 'Gathering this college failed.',
  requestState: (state: string) => `Request is ${state}`,
  nobodyAsked: (name: string) => `Nobody has asked for "${name}" yet. Use Add College to gather it.`,
  noRequest: (key: string) => `No ingestion request "${key}"`,
  onlyFailedRetried: 'Only a failed request can be retried.',
  // Majors
  majorRequestNotRecorded: 'The major stats request could not be recorded',
  majorGatherFailed: (major: string, college: string, reason: string | null) =>
    `We could not gather the ${major} stats for ${college} right now` +
    (reason ? `: ${reason.replace(/\.$/, '')}` : '') +
    '. Please try again in a few minutes.',
  gatheringMajor: (major: string, college: string) => `Gathering ${major} stats for ${college}`,
  majorWaiting: (major: string, college: string, at: string) =>
    `${major} stats for ${college} are waiting: this hour's AI lookups for you are used up, so we will gather them from ${hourOf(at)}.`,
  // An admin's decisions
  noReviewItem: (id: number) => `There is no college waiting for review with id ${id}.`,
  noCollegeWithId: (id: number) => `There is no college with id ${id}.`,
  nameAlreadyShared: (name: string, item: string) =>
    `A college named "${name}" is already shared. Merge "${item}" into it instead.`,
  noSharedCollegeNamed: (name: string) => `No shared college is called "${name}".`,
  mergeIntoItself: 'A college cannot be merged into itself.',
  collegesFound: 'Colleges found',
  tooManyNames: `Please ask for at most ${LIMITS.collegesPerBatchRead} colleges at once.`,
  // Public
  collectionStatsFound: 'Collection stats found',
} as const;

/**
 * What a student reads when gathering a college falls short or fails: the request's failure reason, and
 * why a source is missing from the college's document (the `missing` list, after its field group).
 */
export const GATHER_MSG = {
  // Why a source gave nothing (a clause of the document's `missing` list)
  noScorecardRecordReason: 'the College Scorecard has no record of a college by this name',
  noScorecardKeyReason: 'no College Scorecard API key is configured',
  governmentStoredReason: 'kept as stored from the College Scorecard',
  noAiProviderReason: 'no AI provider is configured',
  // Why nothing could be gathered (the request's failure reason)
  pagesNotGathered: (name: string, why: string) =>
    `We could not gather deadlines, essay prompts and requirements for "${name}" from its own pages. ${why}`,
  pagesNotFound: "The college's own pages could not be found.",
  noAiProvider: 'No AI provider is configured.',
  nothingConfigured: (name: string) =>
    `We could not gather "${name}": no College Scorecard API key and no AI provider are configured, ` +
    'so neither government data nor college facts could be gathered.',
  noScorecardRecord: 'The College Scorecard has no record of a college by this name.',
  noScorecardKey: 'No College Scorecard API key is configured, so no government data could be gathered.',
  noAiFacts: 'No AI provider is configured, so no college facts could be gathered.',
  notFound: (name: string, why: string) =>
    `We could not find a college called "${name}". ${why} Check the spelling or try its full official name.`,
  notGathered: (name: string, why: string) => `We could not gather "${name}". ${why}`,
  failedChecks: (problem: string) => `The gathered data did not pass our checks (${problem}).`,
  providerFailed: (name: string, detail: string) =>
    `We could not gather "${name}" right now: ${asSentence(detail)}`,
  ourError: (name: string) => `We could not gather "${name}" because of an error on our side.`,
  /** A job the queue gave up on without the worker recording why (e.g. it kept crashing). */
  interrupted: 'Gathering this college was interrupted too many times. Please try again later.',
  // A major's profile (the `ingest-major` job)
  majorInterrupted: 'The gathering was interrupted too many times.',
  majorCollegeGone: (college: string) => `"${college}" is no longer in our college list.`,
  noMajorAiReason:
    'admissions figures, activities, essay topics and description (no AI provider is configured)',
  noFieldOfStudyKeyReason: 'field-of-study earnings and debt (no College Scorecard API key is configured)',
  fieldOfStudyFailedReason: (detail: string) => `field-of-study figures (${asSentence(detail).slice(0, -1)})`,
  noMajorOnPages: (major: string, college: string) => `${college}'s pages do not show a ${major} program.`,
  noMajorInScorecard: (major: string, college: string) =>
    `The College Scorecard lists no ${major} program at ${college}.`,
  noMajorFigures: (major: string, college: string) => `No page states ${major} figures for ${college}.`,
  noMajorAiProvider: (major: string, college: string) =>
    `No AI provider is configured, so ${major} figures for ${college} could not be gathered.`,
  majorFailedChecks: (problem: string) => `The gathered major profile did not pass our checks (${problem}).`,
  majorOurError: 'An error on our side stopped the gathering.',
} as const;
