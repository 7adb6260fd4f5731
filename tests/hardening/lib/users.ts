import { RoleRepository } from '@ct/auth/repositories/roles';
import type { StaffRole } from '@ct/contracts';
import { DEFAULT_PROJECT_ID, emulatorHost } from '@ct/testkit';
import type { Queryable } from '@ct/store';

/** Deletes an account in the Auth emulator, as an operator would in the Firebase console. */
export async function deleteAccount(uid: string): Promise<void> {
  const project = process.env.FIREBASE_PROJECT_ID ?? DEFAULT_PROJECT_ID;
  const res = await fetch(
    `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:delete`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ localId: uid }),
    },
  );
  if (!res.ok) throw new Error(`accounts:delete ${res.status}: ${await res.text()}`);
}

/** Gives a uid a staff role straight in the auth service's table (what the role CLI does). */
export async function grantRole(db: Queryable, uid: string, role: StaffRole): Promise<void> {
  await new RoleRepository(db).grantRole(uid, role, null, 'hardening-test');
}

export async function revokeRole(db: Queryable, uid: string): Promise<void> {
  await new RoleRepository(db).revokeRole(uid);
}
