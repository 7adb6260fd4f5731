/**
 * How long the web app waits, animates and shows things (spec section 9 where it gives a figure). These
 * are the app's own: limits the server holds to are `LIMITS` in `@ct/contracts/limits`.
 */
export const TIMINGS = {
  /** Typing pauses this long before suggestions are asked for. */
  suggestionDebounceMs: 1000,
  /** A password reset or verification e-mail cannot be sent again for this long. */
  passwordResetLockMs: 60_000,
  /** "College successfully added to your profile!" shows this long. */
  addCollegeBannerMs: 3000,
  loadedFlagDelayMs: 500,
  landingFadeInMs: 500,
  typingCharMs: 75,
  typingHoldMs: 1000,
  counterDurationMs: 2000,
  /** Share of a counter that must be visible before it starts counting. */
  counterVisibleRatio: 0.1,
  /** How often the status of a college being gathered is asked for (one poll per college, see useIngestionStatus). */
  ingestionPollMs: 1000,
} as const;
