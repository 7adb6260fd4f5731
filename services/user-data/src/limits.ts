import { ESSAY_DRAFT_MAX_CHARS, LIMITS, RECOMMENDERS_PER_COLLEGE } from '@ct/contracts';
import { NOTE_READ_KEEP_DAYS, REMOVED_COLLEGE_KEEP_DAYS } from '@ct/contracts/constants';

/**
 * The service's own limits, in one place (the spec states 30 notes; the others keep a single student's
 * data bounded: what a student needs, and no more, so no account can grow an export or a page without
 * bound; README, "Security"). Essays (issue 35): 80 drafts cover a Common App essay, the UC's four
 * questions and two or three supplements for each of 20-odd colleges; 10,000 characters is about 1,700
 * words, well over the longest essay an application asks for (650 words); 20 kept versions are over three
 * hours of autosaves at one every 10 minutes, plus every "Save a version". At most 80 × 21 × 10,000
 * characters (about 17 MB of text) per account.
 */
export const USER_DATA_LIMITS = {
  notesPerUser: LIMITS.notesPerUser,
  noteContentMax: LIMITS.noteContentMax,
  collegesPerUser: 100,
  draftsPerUser: 80,
  /** The newest versions kept per draft; an older one is dropped when a new one is kept. */
  versionsPerDraft: 20,
  /** Characters in a draft's text (the API refuses more; the same figure in the browser's counter). */
  draftCharsMax: ESSAY_DRAFT_MAX_CHARS,
  /** Exports of one student's data running at once (a second waits for the first to end). */
  exportsPerStudent: 1,
  /** An export's claim on its student lapses when not renewed this long (its process died mid-export). */
  exportLeaseSeconds: 120,
  /** Versions an export reads at a time. */
  exportVersionsPerPage: 5,
  /** While a student writes, the text being replaced is kept as a version at most this often. */
  autoVersionMinutes: 10,
  recommendersPerCollege: RECOMMENDERS_PER_COLLEGE,
  /** A removed college's checklist is kept this long for Undo. */
  removedCollegeKeepDays: REMOVED_COLLEGE_KEEP_DAYS,
  /** How long the trail of admins' reads of students' notes is kept. */
  noteReadKeepDays: NOTE_READ_KEEP_DAYS,
  /** How often kept checklists and note reads older than that are purged. */
  removedPurgeEveryMs: 60 * 60_000,
  /** How long the id of an applied write is kept (a phone offline longer resends nothing older). */
  writeIdKeepDays: 30,
} as const;
