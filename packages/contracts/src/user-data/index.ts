// The user-data service's contracts, one file per resource as in services/user-data/src/routes/.
import { getAcademicProfile, updateAcademicProfile } from './academic.ts';
import { deleteMyData, exportMyData, internalForgetUserDataStudent } from './account.ts';
import { getCollegeChecklist, updateChecklist } from './checklist.ts';
import {
  addUserCollege,
  getCollegeResourcesDemographics,
  getUserColleges,
  removeUserCollege,
} from './colleges.ts';
import {
  calendarFeedIcs,
  createCalendarFeed,
  deadlinesIcs,
  getCalendarFeed,
  getDeadlines,
  getDeadlineSettings,
  revokeCalendarFeed,
  updateDeadlineSettings,
} from './deadlines.ts';
import { getDigestSettings, stopDigest, updateDigestSettings } from './digest.ts';
import { getEssayDrafts, getEssayDraftVersions, saveEssayDraft } from './drafts.ts';
import {
  internalListNoteReads,
  internalListProfileNotes,
  internalListUserColleges,
  internalUserDataStats,
} from './internal.ts';
import { addNote, getNotes, removeNote, updateNote } from './notes.ts';
import { getListOutcomes } from './outcomes.ts';
import { getStudentProfile, updateStudentProfile } from './profile.ts';
import { getRecommenders, removeRecommender, saveRecommender } from './recommenders.ts';
import {
  getReminderSettings,
  subscribeReminders,
  unsubscribeReminders,
  updateReminderSettings,
} from './reminders.ts';
import { getSeason, removeAidOffer, saveAidOffer, updateApplication } from './season.ts';
import {
  createShareLink,
  getSharedView,
  getShareLinks,
  revokeShareLink,
  sharedCalendarIcs,
} from './share.ts';

export * from './academic.ts';
export * from './account.ts';
export * from './checklist.ts';
export * from './colleges.ts';
export * from './deadlines.ts';
export * from './digest.ts';
export * from './drafts.ts';
export * from './internal.ts';
export * from './notes.ts';
export * from './outcomes.ts';
export * from './profile.ts';
export * from './recommenders.ts';
export * from './reminders.ts';
export * from './season.ts';
export * from './share.ts';

export const userDataRoutes = [
  getUserColleges,
  addUserCollege,
  removeUserCollege,
  getCollegeChecklist,
  updateChecklist,
  getCollegeResourcesDemographics,
  getListOutcomes,
  getNotes,
  addNote,
  updateNote,
  removeNote,
  getDeadlines,
  getDeadlineSettings,
  updateDeadlineSettings,
  getCalendarFeed,
  createCalendarFeed,
  revokeCalendarFeed,
  calendarFeedIcs,
  deadlinesIcs,
  getStudentProfile,
  updateStudentProfile,
  getAcademicProfile,
  updateAcademicProfile,
  getEssayDrafts,
  saveEssayDraft,
  getEssayDraftVersions,
  getRecommenders,
  saveRecommender,
  removeRecommender,
  getSeason,
  updateApplication,
  saveAidOffer,
  removeAidOffer,
  createShareLink,
  getShareLinks,
  revokeShareLink,
  getSharedView,
  sharedCalendarIcs,
  getReminderSettings,
  subscribeReminders,
  unsubscribeReminders,
  updateReminderSettings,
  getDigestSettings,
  updateDigestSettings,
  stopDigest,
  exportMyData,
  deleteMyData,
  internalForgetUserDataStudent,
  internalUserDataStats,
  internalListUserColleges,
  internalListProfileNotes,
  internalListNoteReads,
];
