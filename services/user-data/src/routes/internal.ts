import {
  internalListNoteReads,
  internalListProfileNotes,
  internalListUserColleges,
  internalUserDataStats,
  MSG,
  LIMITS,
} from '@ct/contracts';
import { AppError, implement, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { perStudent, presentNoteRead } from '../presenters.ts';

/** Read-only listings and counts for the admin service (internal routes, never reachable from outside). */
export function internalRoutes({ colleges, notes, noteReads, students }: Deps): Implementation[] {
  return [
    implement(internalUserDataStats, async () => students.stats()),
    implement(internalListUserColleges, async (request) => {
      const q = request.query;
      const page = await students.page('colleges', {
        userId: q.userId,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
      const rows = await colleges.collegesOfStudents(page.ids);
      return {
        total: page.total,
        items: perStudent(page.ids, rows, (r) => ({ collegeName: r.college_name })).map((s) => ({
          userId: s.userId,
          colleges: s.items,
        })),
      };
    }),
    // Every page of students' notes is shown to an admin, who is named in the signed call: the read is
    // recorded (who, whose, how many) before the notes leave.
    implement(internalListProfileNotes, async (request) => {
      // The query's userId is the filter here, not the caller: the reader is the signed identity.
      const reader = request.auth?.uid;
      if (!reader) throw new AppError('UNAUTHENTICATED', MSG.userNotAuthenticated);
      const q = request.query;
      const page = await students.page('notes', {
        userId: q.userId,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
      const rows = await notes.notesOfStudents(page.ids);
      const items = perStudent(page.ids, rows, (r) => ({
        title: r.title,
        content: r.content,
        createdAt: r.created_at.toISOString(),
      })).map((s) => ({ userId: s.userId, notes: s.items }));
      await noteReads.record(
        { uid: reader, email: request.auth?.email ?? null },
        items.map((s) => ({ userId: s.userId, notes: s.notes.length })),
      );
      return {
        total: page.total,
        items,
      };
    }),
    implement(internalListNoteReads, async (request) => {
      const page = await noteReads.list(
        request.query.limit ?? 50,
        request.query.offset ?? 0,
        LIMITS.noteReadKeepDays,
      );
      return { total: page.total, items: page.rows.map(presentNoteRead) };
    }),
  ];
}
