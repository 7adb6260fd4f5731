// Rows become API shapes here: repositories return what Postgres stores.
import type { StaffMember } from '@ct/contracts';
import type { DeletedAccountRow } from './repositories/deleted-accounts.ts';
import type { StaffRow } from './repositories/roles.ts';

/** A staff member as the admin's staff list shows them (the e-mail only when the grant recorded one). */
export const presentStaffMember = (r: StaffRow): StaffMember => ({
  userId: r.uid,
  role: r.role,
  ...(r.email ? { email: r.email } : {}),
});

/** A deletion as the gateway's record of deleted accounts reads it. */
export const presentDeletedAccount = (r: DeletedAccountRow) => ({
  seq: Number(r.seq),
  uidSha256: r.uid_sha256,
  deletedAtMs: r.deleted_at.getTime(),
});
