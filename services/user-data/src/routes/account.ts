import {
  DEFAULT_LEAD_DAYS,
  deleteMyData,
  exportMyData,
  internalForgetUserDataStudent,
  LIMITS,
} from '@ct/contracts';
import type { Queryable } from '@ct/store';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError, implement, requireRecentSignIn, requireUser, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { USER_DATA_TUNING } from '../tuning.ts';
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
  presentShareLink,
} from '../presenters.ts';

/** A student's right to take their data with them, and to have it deleted. */
export function accountDataRoutes(deps: Deps): Implementation[] {
  const {
    ctx,
    exports,
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
    shareLinks,
  } = deps;
  return [
    // Streamed (issue 35): the small parts are read in one transaction and sent first, then each essay
    // draft and its versions a page at a time, as the client takes them (backpressure): the service never
    // holds more than a page, whatever the account's size. One export at a time per student.
    implement(exportMyData, async (request, reply) => {
      const uid = requireUser(request);
      const claim = randomUUID();
      if (!(await exports.claim(uid, claim, USER_DATA_TUNING.exportLeaseSeconds)))
        throw new AppError('RATE_LIMITED', UD_MSG.exportRunning);
      let head: string;
      try {
        head = JSON.stringify({ success: true, message: UD_MSG.exported, data: await exportHead(uid) });
      } catch (err) {
        await exports.release(uid, claim);
        throw err;
      }
      const body = Readable.from(exportBody(uid, claim, head), { objectMode: false });
      // Ended, failed or cut off by the client: the next export may start.
      body.once('close', () => {
        exports.release(uid, claim).catch((err: unknown) => request.log.error({ err }, 'export claim kept'));
      });
      body.once('error', (err) => request.log.error({ err }, 'export cut short'));
      return reply.type('application/json; charset=utf-8').header('cache-control', 'no-store').send(body);
    }),

    implement(deleteMyData, async (request) => {
      // Destructive: a token that has been lying around for an hour is not enough.
      const uid = requireRecentSignIn(request);
      const counts = await ctx.db.transaction((tx) => deleteAll(uid, tx));
      request.log.info({ colleges: counts.colleges, notes: counts.notes }, 'student data deleted on request');
      return { success: true, message: UD_MSG.deleted, data: counts };
    }),

    // The account's deletion: the student's writes in flight land first and are deleted with the rest;
    // any write after is refused (migration 110), in the same transaction as the deletion.
    implement(internalForgetUserDataStudent, async (request) => {
      const uid = request.body.uid;
      const counts = await ctx.db.transaction(async (tx) => {
        await students.lockForDeletion(uid, tx);
        const c = await deleteAll(uid, tx);
        await students.recordDeleted(uid, tx);
        return c;
      });
      request.log.info({ colleges: counts.colleges, notes: counts.notes }, 'deleted account forgotten');
      return counts;
    }),
  ];

  /** Everything but the essay drafts (each part bounded by a limit), as of one moment. */
  async function exportHead(uid: string) {
    return ctx.db.transaction(async (tx) => {
      const list = await colleges.listColleges(uid, tx);
      const removed = await colleges.listRemoved(uid, LIMITS.removedCollegeKeepDays, tx);
      const noteList = await notes.listNotes(uid, tx);
      const calendarFeed = await feeds.status(uid, tx);
      const profile = await profiles.getProfile(uid, tx);
      const academicRow = await academic.getAcademic(uid, tx);
      const recommenderList = await recommenders.listRecommenders(uid, undefined, tx);
      const apps = await season.listApplications(uid, tx);
      const offers = await season.listAidOffers(uid, tx);
      const links = await shareLinks.listLinks(uid, tx);
      const digest = await deps.digests.settings(uid, tx);
      const reminderSettings = await deps.reminders.settings(uid, tx);
      const devices = await deps.reminders.subscriptions(uid, tx);
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
        recommenders: recommenderList.map(presentRecommender),
        applications: apps.map((a) => ({ collegeId: a.college_key, ...presentApplication(a) })),
        aidOffers: offers.map((o) => ({ collegeId: o.college_key, ...presentAidOffer(o) })),
        shareLinks: links.map(presentShareLink),
        pushReminders: {
          leadDays: reminderSettings?.lead_days ?? DEFAULT_LEAD_DAYS,
          paused: reminderSettings?.paused ?? false,
          devices: devices.length,
        },
        weeklyEmail: digest && { enabled: digest.enabled, email: digest.email, zone: digest.zone },
      };
    });
  }

  /**
   * The export's text, piece by piece: the head without its closing braces, then `essayDrafts`, one draft
   * and a page of its versions at a time, read only when the client has taken what came before. The
   * claim is renewed as it goes, so a long export keeps it and a dead one lets it lapse.
   */
  async function* exportBody(uid: string, claim: string, head: string): AsyncGenerator<string> {
    yield `${head.slice(0, -2)},"essayDrafts":[`;
    let first = true;
    for (const id of await drafts.draftIds(uid)) {
      // A bulk download gives way: the requests waiting on this process go first.
      await new Promise((resolve) => setImmediate(resolve));
      await exports.renew(uid, claim);
      const d = await drafts.draftById(uid, id);
      if (!d) continue;
      const draft = JSON.stringify({ prompt: d.prompt, body: d.body, updatedAt: d.updated_at.toISOString() });
      yield `${first ? '' : ','}${draft.slice(0, -1)},"versions":[`;
      first = false;
      const versionIds = await drafts.versionIds(uid, id);
      let firstVersion = true;
      for (let i = 0; i < versionIds.length; i += USER_DATA_TUNING.exportVersionsPerPage) {
        await new Promise((resolve) => setImmediate(resolve));
        const page = versionIds.slice(i, i + USER_DATA_TUNING.exportVersionsPerPage);
        for (const v of await drafts.versionsByIds(uid, id, page)) {
          yield `${firstVersion ? '' : ','}${JSON.stringify(presentDraftVersion(v))}`;
          firstVersion = false;
        }
      }
      yield ']}';
    }
    yield ']}}';
  }

  /** Every row of the student, in the caller's transaction. */
  async function deleteAll(uid: string, tx: Queryable): Promise<{ colleges: number; notes: number }> {
    const c = await colleges.deleteAllColleges(uid, tx);
    const n = await notes.deleteAllNotes(uid, tx);
    await feeds.revoke(uid, tx);
    // A deleted account's links stop working with it.
    await shareLinks.deleteAllLinks(uid, tx);
    await profiles.deleteProfile(uid, tx);
    await academic.deleteAcademic(uid, tx);
    await drafts.deleteAllDrafts(uid, tx);
    await recommenders.deleteAllRecommenders(uid, tx);
    await season.deleteAll(uid, tx);
    await noteReads.forget(uid, tx);
    await students.forget(uid, tx);
    await deps.idempotency.forget(uid, tx);
    await deps.reminders.forget(uid, tx);
    await deps.digests.forget(uid, tx);
    return { colleges: c, notes: n };
  }
}
