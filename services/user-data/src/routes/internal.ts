import { internalListProfileNotes, internalListUserColleges, internalUserDataStats } from '@ct/contracts';
import { implement, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { perStudent } from '../presenters.ts';

/** Read-only listings and counts for the admin service (internal routes, never reachable from outside). */
export function internalRoutes({ colleges, notes, students }: Deps): Implementation[] {
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
    implement(internalListProfileNotes, async (request) => {
      const q = request.query;
      const page = await students.page('notes', {
        userId: q.userId,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
      const rows = await notes.notesOfStudents(page.ids);
      return {
        total: page.total,
        items: perStudent(page.ids, rows, (r) => ({
          title: r.title,
          content: r.content,
          createdAt: r.created_at.toISOString(),
        })).map((s) => ({ userId: s.userId, notes: s.items })),
      };
    }),
  ];
}
