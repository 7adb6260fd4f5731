import { internalListProfileNotes, internalListUserColleges, internalUserDataStats } from '@ct/contracts';
import { implement, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';

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
      const lists = await colleges.collegesOfStudents(page.ids);
      return {
        total: page.total,
        items: page.ids.map((userId) => ({ userId, colleges: lists.get(userId) ?? [] })),
      };
    }),
    implement(internalListProfileNotes, async (request) => {
      const q = request.query;
      const page = await students.page('notes', {
        userId: q.userId,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
      const lists = await notes.notesOfStudents(page.ids);
      return {
        total: page.total,
        items: page.ids.map((userId) => ({ userId, notes: lists.get(userId) ?? [] })),
      };
    }),
  ];
}
