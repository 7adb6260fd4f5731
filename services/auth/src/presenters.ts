// Rows become API shapes here: repositories return what Postgres stores.
import type { StaffMember } from '@ct/contracts';
import type { StaffRow } from './repositories/roles.ts';

/** A staff member as the admin's staff list shows them (the e-mail only when the grant recorded one). */
export const presentStaffMember = (r: StaffRow): StaffMember => ({
  userId: r.uid,
  role: r.role,
  ...(r.email ? { email: r.email } : {}),
});
