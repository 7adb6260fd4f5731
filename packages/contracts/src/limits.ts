/**
 * Every numeric product limit, in one place. The schemas' bounds, the services' checks, the sentences
 * that name a limit and the pages that state one all read it from here, so a limit changes in one line
 * (issue 37). No schema library: the browser bundle imports it (`@ct/contracts/limits`). How long the web
 * app's animations and banners last is the web app's own business (web/src/lib/timings.ts).
 *
 * `limits.test.ts` checks that each schema bound and each message agrees with these numbers.
 */
export const LIMITS = {
  // ---- spec section 9 ----
  /** Characters typed before suggestions are asked for. */
  suggestionMinLength: 3,
  /** Suggestions one answer holds. */
  suggestionMaxResults: 10,
  /** Characters of a note's content ("Character Count n/2000"). */
  noteContentMax: 2000,
  /** Notes a student may keep (the spec states it in the UI; the API holds to it too). */
  notesPerUser: 30,

  // ---- beyond the spec: each keeps one student's data bounded (README, "Security") ----
  noteTitleMax: 200,
  /** Characters of a college name as a student types it. */
  collegeNameMax: 200,
  /** Colleges on one student's list. */
  collegesPerUser: 100,
  /**
   * Essays (issue 35): 80 drafts cover a Common App essay, the UC's four questions and two or three
   * supplements for each of 20-odd colleges; 10,000 characters is about 1,700 words, well over the longest
   * essay an application asks for (650 words); 20 kept versions are over three hours of autosaves at one
   * every 10 minutes, plus every "Save a version". At most 80 × 21 × 10,000 characters (about 17 MB of
   * text) per account.
   */
  draftsPerUser: 80,
  /** The newest versions kept per draft; an older one is dropped when a new one is kept. */
  versionsPerDraft: 20,
  /** Characters in a draft's text (the API refuses more; the same figure in the browser's counter). */
  draftCharsMax: 10_000,
  /** While a student writes, the text being replaced is kept as a version at most this often. */
  autoVersionMinutes: 10,
  /** Characters of an example essay an admin adds to a prompt, and of one the AI writes. */
  exampleEssayMin: 50,
  exampleEssayMax: 20_000,
  recommendersPerCollege: 10,
  /** Characters naming who writes a recommendation. */
  recommenderWhoMax: 120,
  checklistSectionsMax: 30,
  checklistItemsPerSection: 200,
  /** Characters of one checklist item's text. */
  checklistItemTextMax: 500,
  /** Colleges a student may mark as applied to test-optional. */
  testOptionalCollegesMax: 100,
  /** Dollars a year a student may give as a budget. */
  yearlyBudgetMax: 500_000,
  /** Characters of an application portal's web address. */
  portalUrlMax: 500,
  /** Dollars one line of an aid offer may hold. */
  aidAmountMax: 1_000_000,
  /** Lines of each kind (grants, loans) one aid offer may hold. */
  aidLinesMax: 20,
  /** Characters naming a grant or scholarship. */
  aidLineNameMax: 120,
  /** Days before a deadline a reminder may be set, and how many such days a student may choose. */
  reminderDaysMax: 120,
  reminderDaysCount: 6,
  /** Names one batch read of colleges may ask for (the season overview). */
  collegesPerBatchRead: 100,
  /** A college removed from a student's list keeps its checklist progress this long, for Undo or re-adding. */
  removedCollegeKeepDays: 30,
  /**
   * How long the trail of admins' reads of students' notes is kept (whatever happens to the reader's
   * account or role): stated on the Admin page and in the README.
   */
  noteReadKeepDays: 365,
  /** How recent a sign-in must be before an account or its data can be deleted (seconds). */
  recentSignInSeconds: 5 * 60,

  /** Share links (issue 33). */
  share: {
    /** Links a student may hold at once (expired ones do not count). */
    linksPerStudent: 10,
    /** The longest a link may live, and how long it lives unless the student says. */
    maxDays: 365,
    defaultDays: 90,
    /** Characters of the name a student gives a link. */
    labelMax: 80,
    /** Views (page and calendar alike) one link answers a minute; more wait for the next minute. */
    viewsPerMinute: 30,
  },
} as const;

/** The scales of the tests a student reports scores of: facts of the tests, not choices of ours. */
export const SCORE_SCALES = {
  satSection: { min: 200, max: 800, step: 10 },
  actComposite: { min: 1, max: 36 },
  unweightedGpa: { min: 0, max: 4 },
} as const;

/** The published collection (spec section 9): what the About page counts up to before the figures load. */
export const PUBLISHED = { majors: 165, colleges: 10000, itemsPerCollege: 33 } as const;
