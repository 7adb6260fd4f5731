import { fileURLToPath } from 'node:url';
import { getStaffRoles, internalGetRole, internalListStaff, MSG } from '@ct/contracts';
import { AppError, defineService, implement, registerRoutes, requireUser, withBase } from '@ct/service-kit';
import { RoleRepository } from './repository.ts';

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
        if (!role) throw new AppError('NOT_FOUND', 'No staff role found for user');
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
