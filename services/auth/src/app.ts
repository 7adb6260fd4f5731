import { fileURLToPath } from 'node:url';
import { getStaffRoles, internalGetRole, internalListStaff, MSG } from '@ct/contracts';
import { defineService, implement, registerRoutes, requireUser, withBase } from '@ct/service-kit';
import { RoleRepository } from './repository.ts';

const AUTH_MSG = { noStaffRole: 'No staff role found for user' } as const;

/** The auth service: staff roles per uid and the is-admin lookup. */
export default defineService({
  name: 'auth',
  schema: 'auth',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: withBase({}),
  async plugin(app, ctx) {
    const roles = new RoleRepository(ctx.db);
    registerRoutes(app, ctx, [
      implement(getStaffRoles, async (request) => {
        const uid = requireUser(request);
        const role = await roles.findRole(uid);
        // Most users have no role: that is an answer, not a failure (no 404 on every student's page load).
        if (!role) return { success: true, message: AUTH_MSG.noStaffRole, role: null, data: null };
        return { success: true, message: MSG.staffRoleFound, role, data: role };
      }),
      implement(internalGetRole, async (request) => ({ role: await roles.findRole(request.params.uid) })),
      implement(internalListStaff, async (request) => {
        const q = request.query;
        return roles.listStaff({
          userId: q.userId,
          role: q.role,
          limit: q.limit ?? 50,
          offset: q.offset ?? 0,
        });
      }),
    ]);
  },
});
