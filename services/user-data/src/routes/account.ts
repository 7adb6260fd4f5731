import { deleteMyData, exportMyData } from '@ct/contracts';
import { implement, requireRecentSignIn, requireUser, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { USER_DATA_LIMITS } from '../limits.ts';
import { UD_MSG } from '../messages.ts';
import {
  presentAidOffer,
  presentApplication,
  presentDraftVersion,
  presentExportedCollege,
  presentFeedStatus,
  presentNote,
  presentProfile,
  presentAcademicProfile,
  presentRecommender,
  presentRemovedCollege,
} from '../presenters.ts';

/** A student's right to take their data with them, and to have it deleted. */
export function accountDataRoutes(deps: Deps): Implementation[] {
  const {
    ctx,
    colleges,
    notes,
    noteReads,
    feeds,
    students,
    profiles,
    academic,
    drafts,
    recommenders,
    season,
  } = deps;
  return [
    implement(exportMyData, async (request) => {
      const uid = requireUser(request);
      // One transaction: colleges, notes and the link are read as of the same moment.
      const data = await ctx.db.transaction(async (tx) => {
        const [
          list,
          removed,
          noteList,
          calendarFeed,
          profile,
          academicRow,
          draftList,
          recommenderList,
          apps,
          offers,
        ] = [
          await colleges.listColleges(uid, tx),
          await colleges.listRemoved(uid, USER_DATA_LIMITS.removedCollegeKeepDays, tx),
          await notes.listNotes(uid, tx),
          await feeds.status(uid, tx),
          await profiles.getProfile(uid, tx),
          await academic.getAcademic(uid, tx),
          await drafts.listDrafts(uid, tx),
          await recommenders.listRecommenders(uid, undefined, tx),
          await season.listApplications(uid, tx),
          await season.listAidOffers(uid, tx),
        ];
        const essayDrafts = [];
        for (const d of draftList)
          essayDrafts.push({
            prompt: d.prompt,
            body: d.body,
            updatedAt: d.updated_at.toISOString(),
            versions: ((await drafts.listVersions(uid, d.id, tx)) ?? []).map(presentDraftVersion),
          });
        return {
          userId: uid,
          exportedAt: new Date().toISOString(),
          colleges: list.map(presentExportedCollege),
          removedColleges: removed.map(presentRemovedCollege),
          notes: noteList.map(presentNote),
          calendarFeed: presentFeedStatus(calendarFeed),
          profile: presentProfile(profile),
          academicProfile: presentAcademicProfile(
            academicRow,
            new Map(list.map((c) => [c.college_key, c.college_name])),
          ),
          essayDrafts,
          recommenders: recommenderList.map(presentRecommender),
          applications: apps.map((a) => ({ collegeId: a.college_key, ...presentApplication(a) })),
          aidOffers: offers.map((o) => ({ collegeId: o.college_key, ...presentAidOffer(o) })),
        };
      });
      return { success: true, message: UD_MSG.exported, data };
    }),

    implement(deleteMyData, async (request) => {
      // Destructive: a token that has been lying around for an hour is not enough.
      const uid = requireRecentSignIn(request);
      const counts = await ctx.db.transaction(async (tx) => {
        const c = await colleges.deleteAllColleges(uid, tx);
        const n = await notes.deleteAllNotes(uid, tx);
        await feeds.revoke(uid, tx);
        await profiles.deleteProfile(uid, tx);
        await academic.deleteAcademic(uid, tx);
        await drafts.deleteAllDrafts(uid, tx);
        await recommenders.deleteAllRecommenders(uid, tx);
        await season.deleteAll(uid, tx);
        await noteReads.forget(uid, tx);
        await students.forget(uid, tx);
        await deps.idempotency.forget(uid, tx);
        await deps.reminders.forget(uid, tx);
        return { colleges: c, notes: n };
      });
      request.log.info({ colleges: counts.colleges, notes: counts.notes }, 'student data deleted on request');
      return { success: true, message: UD_MSG.deleted, data: counts };
    }),
  ];
}
