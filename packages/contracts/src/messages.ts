import { LIMITS, SCORE_SCALES } from './limits.ts';

/** A number as the sentences below write it: "20,000". */
const grouped = (n: number): string => n.toLocaleString('en-US');

/**
 * Every user-facing string the product spec gives, word for word, in one place.
 * Server replies and the web client both read from here. A number a sentence names comes from the limits
 * (`limits.ts`), so the sentence and the check that refuses cannot disagree.
 */
export const MSG = {
  // Server replies (spec section 7)
  collegeFound: 'College found',
  suggestionsFound: 'Suggestions found',
  majorStatsFound: 'Major Stats Found',
  collegesFoundForUser: 'Colleges Found For User',
  checklistFound: 'Checklist found',
  resourcesAndDemographicsFound: 'Resources and Demographics found',
  notesFoundForUser: 'Notes Found For User',
  deadlinesFound: 'Deadlines found',
  deadlinesNotFound: 'Deadlines not found for user',
  staffRoleFound: 'Staff Role Found for User',

  // Login and account (spec section 8)
  loginGenericError: 'An error occurred. Please try again.',
  googleSignInError: 'Error signing in with Google. Please try again.',
  emailNotVerified: 'Your email is not verified. Please verify your email before logging in.',
  signUpInfo:
    'A verification email has been sent to your email address. Please check your inbox and click the link to verify your account before logging in.',
  resetSent: 'Password reset email sent. Check your inbox.',
  resetFailedPrefix: 'Error sending password reset email',
  enterName: 'Please enter your name',
  pleaseWait: 'Please wait...',
  displayNameUpdated: 'Display name updated successfully!',
  passwordUpdated: 'Password updated successfully!',
  displayNameError: (m: string) => `Error updating display name: ${m}`,
  passwordError: (m: string) => `Error updating password: ${m}`,
  resetError: (m: string) => `Error sending password reset email: ${m}`,

  // Dashboard
  cannotSwitchInEdit: 'Cannot switch colleges while in edit mode!',
  failedToUpdateChecklist: 'Failed to update checklist.',
  userNotAuthenticated: 'User not authenticated',
  collegeRemoved: 'College removed from your profile',
  cannotFetchSuggestionsFor: (q: string) => `Cannot fetch any suggestions for ${q}`,
  majorStatsNotFound: 'Major stats not found for the given college and major.',
  errorOccurred: (m: string) => `An error occurred: ${m}`,
  noCollegesAdded: 'No colleges added yet.',
  selectCollegeResources: 'Select a college to view its resources.',
  loadingResources: 'Loading resources...',
  selectCollegeDemographics: 'Select a college to view its demographics.',
  loadingDemographics: 'Loading demographics...',
  noExtracurriculars: 'No extracurriculars listed for this major.',
  noEssayTopics: 'No essay topics available for this major.',
  progressDone: 'Congratulations!',
  progressZero: "Let's get started!",
  progressSome: "Keep going, you're making progress!",
  loadingOverlay: 'Taking our time :D',

  // Essays
  failedToLoadCollegeNames: 'Failed to load college names.',
  errorFetchingPrompts: 'An error occurred while fetching prompts.',
  errorFetchingEssays: 'An error occurred while fetching essays.',
  noPromptsFound: 'No prompts found for the given college',
  noEssaysFound: 'No essays found for the given prompt.',
  noCollegesAvailable: 'No colleges available.',

  // Search and notes
  failedToAddCollege: (m: string) => `Failed to add college: ${m}`,
  addCollegeLater: 'An error occurred while adding the college. Please try again later.',
  createNoteMissing: 'Failed to create note: Title and Content must be filled out',
  updateNoteMissing: 'Failed to update note: Title and Content must be filled out',
  noteTooLong: `Note content cannot exceed ${LIMITS.noteContentMax} characters`,
  failedToCreateNote: (m: string) => `Failed to create note: ${m}`,
  failedToUpdateNote: (m: string) => `Failed to update note: ${m}`,
  failedToUpdateNoteGeneric: 'Failed to update note.',
  noteAdded: 'Note successfully added to your profile!',
  noteUpdated: 'Note successfully updated!',
  collegeAdded: 'College successfully added to your profile!',
  noInfoFound: 'No Info Found',
  noDataForCollege: (n: number) => `No data for College ${n}`,
  noDeadlinesForDate: 'No deadlines for this date.',
  noDeadlinesAvailable: 'No deadlines available.',
  noNotesYet: 'No notes yet. Create your first note!',

  // Accounts (not in the spec: sign-in methods, recent sign-in, account deletion)
  guestSignInRefused:
    'Guest sign-in is not supported. Please sign in with your email and password or with Google.',
  signInMethodRefused:
    'This sign-in method is not supported. Please sign in with your email and password or with Google.',
  recentSignInRequired: `For your security, deleting needs a recent sign-in: please sign in again, then retry within ${LIMITS.recentSignInSeconds / 60} minutes.`,
  accountDeleted: 'Your account and all your data were deleted.',
  accountDataNotDeleted:
    'Nothing was deleted: your data could not be deleted right now. Please sign in again and retry in a few minutes.',
  accountSessionsNotEnded:
    'Nothing was deleted: the sign-in service could not be reached. Please try again in a few minutes.',
  accountNotDeleted: (reason: string) =>
    `Your colleges, checklists and notes were deleted, but your sign-in account could not be (${reason}). Please sign in again and retry to finish.`,

  // Admin
  errorFetchingAdminData: 'Error fetching admin data',
  welcomeAdmin: 'Welcome, Admin!',
  loading: 'Loading...',
} as const;

/**
 * Refusals of bad input that the spec does not word, given by the schemas themselves (`errorMessage`) or
 * by the service that checks further (a date that names no real day), so both say the same.
 */
export const INPUT_MSG = {
  noteTitleOneLine: 'A note title must be one line: no line breaks, tabs or other control characters',
  noteContentControl: 'A note can hold line breaks and tabs, but no other control characters',
  collegeNameOneLine: 'A college name must be one line: no line breaks, tabs or other control characters',
  noteDate: 'The note date must be a real date (YYYY-MM-DD) or empty',
  dates: 'Dates must be real dates (YYYY-MM-DD) or empty',
  checklistSections: `Invalid checklist: sections are named in camelCase (for example financialAid), at most ${LIMITS.checklistSectionsMax} of them`,
  homeState: 'The home state must be a U.S. state or territory code such as "ME", or empty',
  incomeBand: (bands: readonly string[]) => `The income band must be one of ${bands.join(', ')}, or empty`,
  draftTooLong: `A draft can be at most ${grouped(LIMITS.draftCharsMax)} characters`,
  promptWithoutWords: 'The prompt must contain words',
  recommenderWho: `Say who is writing the recommendation (at most ${LIMITS.recommenderWhoMax} characters)`,
  recommenderWhoBlank: 'Say who is writing the recommendation',
  exampleEssayLength: `The example essay must be between ${grouped(LIMITS.exampleEssayMin)} and ${grouped(LIMITS.exampleEssayMax)} characters`,
  satSection: `An SAT section score is a multiple of ${SCORE_SCALES.satSection.step} from ${SCORE_SCALES.satSection.min} to ${SCORE_SCALES.satSection.max}, or empty`,
  actComposite: `The ACT composite is a whole number from ${SCORE_SCALES.actComposite.min} to ${SCORE_SCALES.actComposite.max}, or empty`,
  gpa: `The unweighted GPA is a number from ${SCORE_SCALES.unweightedGpa.min} to ${SCORE_SCALES.unweightedGpa.max}, or empty`,
  yearlyBudget: `The yearly budget is a whole number of dollars from 0 to ${grouped(LIMITS.yearlyBudgetMax)}, or empty`,
  testOptional: `Test-optional choices name at most ${LIMITS.testOptionalCollegesMax} colleges`,
  plan: (plans: readonly string[]) => `The plan must be one of ${plans.join(', ')}, or empty`,
  applicationStatus: (statuses: readonly string[]) => `The status must be one of ${statuses.join(', ')}`,
  portalUrl: `The portal link must be a web address starting with http:// or https:// (at most ${LIMITS.portalUrlMax} characters)`,
  aidAmount: `Amounts must be whole dollars from $0 to $${grouped(LIMITS.aidAmountMax)} (no negative amounts)`,
  aidLineName: `Name each grant or scholarship (at most ${LIMITS.aidLineNameMax} characters)`,
  loanKind: (kinds: readonly string[]) => `The loan kind must be one of ${kinds.join(', ')}`,
  reminderDaysRange: `Reminder days must be different whole days from 0 to ${LIMITS.reminderDaysMax}, at most ${LIMITS.reminderDaysCount} of them.`,
} as const;

/** Refusals of a share link's settings (issue 33). */
export const SHARE_INPUT_MSG = {
  label: `Name the link so you know who has it (1 to ${LIMITS.share.labelMax} characters), for example "Mom"`,
  labelOneLine:
    'A link name must be one line: no line breaks, tabs, direction marks or other control characters',
  scope: (scopes: readonly string[]) => `What a link shows must be chosen from ${scopes.join(', ')}`,
  days: `A link expires after 1 to ${LIMITS.share.maxDays} days`,
} as const;
