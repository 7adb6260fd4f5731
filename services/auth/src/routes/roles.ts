import { getStaffRoles, internalGetRole, internalListStaff, MSG } from '@ct/contracts';
import { implement, requireUser } from '@ct/service-kit';
import { AUTH_MSG } from '../messages.ts';
import { presentStaffMember } from '../presenters.ts';
import type { RoleRepository } from '../repositories/roles.ts';

/** Staff roles: the caller's own, the is-admin lookup and the staff list (internal). */
export function roleRoutes(roles: RoleRepository) {
  return [
    implement(getStaffRoles, async (request) => {
      const uid = requireUser(request);
      const role = await roles.findRole(uid);
      // Most users have no role: that is an answer, not a failure (no 404 on every student's page load).
      if (!role) return { success: true, message: AUTH_MSG.noStaffRole, role: null, data: null };
      return { success: true, message: MSG.staffRoleFound, role, data: role };
    }),
    implement(internalGetRole, async (request) => {
      const grant = await roles.findGrant(request.params.uid);
      return { role: grant?.role ?? null, grantedAtMs: grant?.grantedAtMs ?? null };
    }),
    implement(internalListStaff, async (request) => {
      const q = request.query;
      const page = await roles.listStaff({
        userId: q.userId,
        role: q.role,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
      return { total: page.total, items: page.rows.map(presentStaffMember) };
    }),
  ];
}
