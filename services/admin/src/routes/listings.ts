import {
  adminColleges,
  adminMajorColleges,
  adminNoteReads,
  adminProfileNotes,
  adminStaff,
  adminUserColleges,
  internalListColleges,
  internalListMajorColleges,
  internalListNoteReads,
  internalListProfileNotes,
  internalListStaff,
  internalListUserColleges,
} from '@ct/contracts';
import { implement, type Implementation, type ServiceContext } from '@ct/service-kit';
import { askOwner, fromOwners } from './owners.ts';

/** Empty filters mean "no filter": an admin clearing the box should see everything again. */
const filter = (s: string | undefined) => (s && s.trim() ? s.trim() : undefined);

/**
 * The read-only listings. Filtering and pagination happen in the owning service (indexed SQL there),
 * so a page costs the same with 10 or 100,000 rows; the admin service only forwards and renames.
 */
export function listingRoutes(ctx: ServiceContext): Implementation[] {
  return [
    implement(adminColleges, async (request) => {
      const q = request.query;
      const [r] = await fromOwners([
        askOwner(ctx, internalListColleges, {
          query: { name: filter(q.name), full: q.full, limit: q.limit, offset: q.offset },
          requestId: request.id,
        }),
      ] as const);
      return { success: true, total: r.total, colleges: r.items };
    }),

    implement(adminStaff, async (request) => {
      const q = request.query;
      const [r] = await fromOwners([
        askOwner(ctx, internalListStaff, {
          query: { userId: filter(q.filterUserId), role: filter(q.role), limit: q.limit, offset: q.offset },
          requestId: request.id,
        }),
      ] as const);
      return { success: true, total: r.total, staff: r.items };
    }),

    implement(adminMajorColleges, async (request) => {
      const q = request.query;
      const [r] = await fromOwners([
        askOwner(ctx, internalListMajorColleges, {
          query: { name: filter(q.name), limit: q.limit, offset: q.offset },
          requestId: request.id,
        }),
      ] as const);
      return { success: true, total: r.total, majorColleges: r.items };
    }),

    implement(adminUserColleges, async (request) => {
      const q = request.query;
      const [r] = await fromOwners([
        askOwner(ctx, internalListUserColleges, {
          query: { userId: filter(q.filterUserId), limit: q.limit, offset: q.offset },
          requestId: request.id,
        }),
      ] as const);
      return { success: true, total: r.total, userColleges: r.items };
    }),

    implement(adminProfileNotes, async (request) => {
      const q = request.query;
      const [r] = await fromOwners([
        // The admin is named in the call: user-data records who read whose notes.
        askOwner(ctx, internalListProfileNotes, {
          query: { userId: filter(q.filterUserId), limit: q.limit, offset: q.offset },
          auth: request.auth,
          requestId: request.id,
        }),
      ] as const);
      return { success: true, total: r.total, profileNotes: r.items };
    }),

    implement(adminNoteReads, async (request) => {
      const q = request.query;
      const [r] = await fromOwners([
        askOwner(ctx, internalListNoteReads, {
          query: { limit: q.limit, offset: q.offset },
          requestId: request.id,
        }),
      ] as const);
      // Reads recorded before the e-mail was kept with them: the staff list's, where it still has one.
      const emails = await staffEmails(
        ctx,
        r.items.flatMap((n) => (n.readerId && !n.readerEmail ? [n.readerId] : [])),
        request.id,
      );
      return {
        success: true,
        total: r.total,
        noteReads: r.items.map((n) => ({
          ...n,
          readerEmail: n.readerEmail ?? ((n.readerId && emails.get(n.readerId)) || null),
        })),
      };
    }),
  ];
}

/**
 * The e-mails the staff list has for these uids (the admins on one page of the note-read trail, a few
 * distinct ones at most): one look-up each in the auth service's staff list, matched exactly.
 */
async function staffEmails(ctx: ServiceContext, uids: string[], requestId: string) {
  const distinct = [...new Set(uids)];
  const pages = await fromOwners(
    distinct.map((userId) =>
      askOwner(ctx, internalListStaff, { query: { userId, limit: 200, offset: 0 }, requestId }),
    ),
  );
  const emails = new Map<string, string>();
  pages.forEach((page, i) => {
    const member = page.items.find((s) => s.userId === distinct[i]);
    if (member?.email) emails.set(member.userId, member.email);
  });
  return emails;
}
