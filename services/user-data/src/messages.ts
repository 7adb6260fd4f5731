import { LIMITS } from '@ct/contracts';

/**
 * Replies the spec does not word. Spec wording (MSG) is used wherever the spec gives one.
 */
export const UD_MSG = {
  collegeNotCached: (name: string) =>
    `We have no data for "${name}" yet. Search for it on the Search page first, then add it to your profile.`,
  collegeRestored: 'College added back to your profile, with its checklist progress.',
  collegeAlreadyAdded: (name: string) => `${name} is already in your colleges.`,
  tooManyColleges: `You can have at most ${LIMITS.collegesPerUser} colleges. Remove one to add another.`,
  collegeNotInList: (name: string) => `"${name}" is not in your colleges.`,
  collegeDataGone: (name: string) =>
    `We no longer have data for "${name}". Search for it again to refresh it.`,
  checklistUpdated: 'Checklist updated',
  listOutcomesFound: 'How students like you finish at your colleges',
  reminderTitle: (college: string, kind: string) => `${college}: ${kind}`,
  reminderBody: (when: string, lead: number) =>
    lead === 0 ? `Due today, ${when}.` : `Due in ${lead} ${lead === 1 ? 'day' : 'days'}: ${when}.`,
  reminderSettings: 'Reminder settings',
  remindersOn: 'Reminders are on for this device.',
  remindersOff: 'Reminders are off for this device.',
  pushDeviceTaken:
    'This device already sends reminders to another account. Sign in to that account on this device to turn them off there first.',
  reminderSettingsSaved: 'Reminder settings saved.',
  digestSettings: 'Weekly e-mail settings',
  digestOn: (email: string) => `The weekly e-mail is on. It goes to ${email} on Monday mornings.`,
  digestOff: 'The weekly e-mail is off.',
  digestUnavailable: 'This server does not send e-mail, so the weekly e-mail cannot be turned on.',
  digestNoEmail: 'Your account has no verified e-mail address to send the weekly e-mail to.',
  digestStopped: 'The weekly e-mail is off. You can turn it on again in Profile.',
  digestStopUnknown:
    'This link does not stop any e-mail: its account may have been deleted. The weekly e-mail can be turned off in Profile.',
  digestSubject: (n: number) => `This week: ${n} ${n === 1 ? 'deadline' : 'deadlines'} in the next 14 days`,
  digestSubjectNext: (college: string, when: string) => `Your next deadline: ${college}, ${when}`,
  digestIntro: (n: number) =>
    `${n === 1 ? 'One deadline' : `${n} deadlines`} of your plan ${n === 1 ? 'is' : 'are'} due in the next 14 days:`,
  digestIntroNone: 'Nothing of your plan is due in the next 14 days. Your next deadline:',
  digestAllChecklists: (url: string) => `All your colleges and checklists: ${url}`,
  digestOpenApp: 'Open your colleges and checklists',
  digestWhy: 'You get this e-mail on Monday mornings because you turned it on in College Ready.',
  digestStop: (url: string) => `To stop it: ${url}`,
  digestStopLink: 'Stop these e-mails',
  badIdempotencyKey:
    'The write id (Idempotency-Key) must be 8 to 100 letters, digits, dashes or underscores.',
  writeInProgress: 'This change is still being saved. Try again in a moment.',
  staleItem:
    'This checklist item has changed since you loaded it (the checklist was updated elsewhere). Reload the checklist and try again.',
  applicationChanged: (now: string) =>
    `This application was changed elsewhere meanwhile (now ${now}); nothing was overwritten. Open it to see it, and change it again if you still want to.`,
  tooManyNotes: `You can have at most ${LIMITS.notesPerUser} notes. Delete a note to add a new one.`,
  noteTitleTaken: (title: string) => `You already have a note titled "${title}". Choose another title.`,
  noteNotFound: 'Note not found',
  noteRefMissing: 'Failed to update note: say which note (noteId or noteTitle)',
  noteRemoveRefMissing: 'Say which note to delete (noteId or noteTitle)',
  noteRemoved: 'Note deleted',
  feedStatus: 'Calendar link status',
  feedCreated: 'Calendar link created. Copy it now: for your privacy it is shown only once.',
  feedRevoked: 'Calendar link revoked. Calendars using it will stop updating.',
  feedNotFound:
    'This calendar link is not valid. It may have been revoked; create a new one on your profile.',
  exported: 'Your data',
  exportRunning: 'Your data is already being exported. Wait for that download to finish, then try again.',
  deleted:
    'Your colleges, checklists, notes, calendar link, profile, essay drafts, recommenders, applications and aid offers were deleted.',
  profileFound: 'Your profile',
  profileSaved: 'Profile saved',
  academicFound: 'Your academic profile',
  academicSaved: 'Academic profile saved',
  draftsFound: 'Your essay drafts',
  draftSaved: 'Draft saved',
  draftConflict:
    'This draft was changed in another tab or on another device since you opened it. Reload it to see the newer text, or keep yours: the other text is then kept as a version.',
  tooManyDrafts: `You can have at most ${LIMITS.draftsPerUser} essay drafts, so a draft for this prompt was not saved.`,
  draftNotFound: 'Draft not found',
  versionsFound: 'Earlier versions',
  recommendersFound: 'Your recommenders',
  recommenderSaved: 'Recommender saved',
  recommenderRemoved: 'Recommender removed',
  recommenderNotFound: 'Recommender not found',
  tooManyRecommenders: `A college can have at most ${LIMITS.recommendersPerCollege} recommenders.`,
  seasonFound: 'Your season',
  applicationSaved: 'Application updated',
  aidOfferSaved: 'Aid offer saved',
  aidOfferRemoved: 'Aid offer removed',
  aidOfferNotFound: 'There is no aid offer saved for this college.',
  dateOutOfRange: (field: string) =>
    `The ${field} must be a real date within three years of today (YYYY-MM-DD)`,
  answerNeedsAdmission: 'Enrolled and declined answer an admission: set the status to admitted first.',
  oneEnrollment: (other: string) =>
    `You are already enrolled at ${other}. Change that college's status first: you can enroll at one college only.`,
  portalPassword:
    'The portal link must not contain a user name or password. Keep your password in the portal.',
  grantsOverCost: (grants: string, cost: string) =>
    `Grants and scholarships (${grants}) cannot be more than the cost of attendance (${cost}). Check the letter's figures.`,
  aidLineNameBlank: 'Name each grant or scholarship',
  shareLinkCreated:
    'Share link created. Copy it now: for your privacy it is shown only once. Anyone with the link can see what you chose, read only.',
  shareLinksFound: 'Your share links',
  shareLinkRevoked: 'Share link revoked. It stopped working at once.',
  shareLinkNotFound: 'You have no such share link. It may have been revoked already.',
  tooManyShareLinks: `You can have at most ${LIMITS.share.linksPerStudent} share links. Revoke one you no longer need to create another.`,
  sharedViewFound: 'Shared, read only',
  sharedLinkGone:
    'This link no longer works. It may have been revoked or have expired; ask the student for a new one.',
  sharedTooManyViews: (seconds: number) =>
    `This link has been opened too often in the last minute. Try again in ${seconds} seconds.`,
  sharedByUnnamed: 'a student',
  malformedEvent: (name: string) => `malformed ${name} event`,
  /** A deadline's date when only last cycle's is known, moved one year on. */
  expected: (date: string) => `Expected ${date} (last cycle's date; confirm on the college's site)`,
  /** A date placed in the cycle by the college's yearly rule ("Dec 1 every cycle"), not yet published. */
  expectedYearly: (date: string) =>
    `Expected ${date} (the college's yearly date; confirm on the college's site)`,
  deadlineUndated: 'No date (rolling admission)',
  /** The CSS Profile opening's details: which colleges on the list ask for it. */
  cssProfileFor: (colleges: readonly string[]) =>
    `Asked for by ${colleges.join(', ')} on your list (College Board's list), and by many other private colleges. Check each college's financial aid page for its priority deadline.`,
  notKnown: 'not known',
  replyDateTitle: 'College reply deadline (May 1)',
  replyDateDetails:
    'Most colleges ask admitted students to reply by May 1 (the National Candidates Reply Date). Check each offer for its own date.',
  /** The description of a deadline event: when it is due, and in which zone. */
  dueAt: (zone: string, basis: 'student' | 'college' | 'assumed') =>
    basis === 'student'
      ? `Due 11:59 pm ${zone} (your local time)`
      : basis === 'college'
        ? `Due 11:59 pm ${zone} (the college's time)`
        : `Due 11:59 pm ${zone} (the college's time zone is not known; confirm on its site)`,
  deadlineSettingsFound: 'Your deadline settings',
  deadlineSettingsSaved: 'Deadline settings saved',
  enteringYearRange: 'The entering year must be this year or one of the next four.',
} as const;
