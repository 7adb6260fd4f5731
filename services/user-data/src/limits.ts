import { LIMITS, RECOMMENDERS_PER_COLLEGE } from '@ct/contracts';
import { REMOVED_COLLEGE_KEEP_DAYS } from '@ct/contracts/constants';

/** The service's own limits (the spec states 30 notes; the others keep a single student's data bounded). */
export const USER_DATA_LIMITS = {
  notesPerUser: LIMITS.notesPerUser,
  noteContentMax: LIMITS.noteContentMax,
  collegesPerUser: 100,
  draftsPerUser: 200,
  versionsPerDraft: 50,
  /** While a student writes, the text being replaced is kept as a version at most this often. */
  autoVersionMinutes: 10,
  recommendersPerCollege: RECOMMENDERS_PER_COLLEGE,
  /** A removed college's checklist is kept this long for Undo. */
  removedCollegeKeepDays: REMOVED_COLLEGE_KEEP_DAYS,
  /** How often kept checklists older than that are purged. */
  removedPurgeEveryMs: 60 * 60_000,
  /** How long the id of an applied write is kept (a phone offline longer resends nothing older). */
  writeIdKeepDays: 30,
} as const;
