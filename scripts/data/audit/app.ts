/**
 * The app the data audits ask through: embedded (PGlite in memory, or Postgres with AUDIT_STORE=postgres;
 * the shipped snapshot loaded), with the
 * Auth emulator on AUTH_EMULATOR_PORT or 9420, and an admin to ask as. `fn` gets the API as that admin.
 */
import { RoleRepository } from '@ct/auth/repositories/roles';
import { loadSnapshot, type SnapshotLoadResult } from '@ct/colleges/snapshot';
import { createVerifiedUser, startTestGateway } from '@ct/testkit';
import { startAuthEmulator } from '../../lib/auth-emulator.ts';
import type { NamesApi } from './names.ts';

export async function withAuditApp<T>(
  fn: (api: NamesApi, loaded: SnapshotLoadResult) => Promise<T>,
): Promise<T> {
  const emulator = await startAuthEmulator({ port: Number(process.env.AUTH_EMULATOR_PORT ?? 9420) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  process.env.LOAD_SNAPSHOT = 'false';
  // Embedded by default; AUDIT_STORE=postgres uses a fresh database on the local Postgres instead.
  const store = process.env.AUDIT_STORE === 'postgres' ? 'postgres' : 'pglite';
  const gw = await startTestGateway({ store, queue: 'memory', env: { LOG_LEVEL: 'silent' } });
  try {
    const loaded = await loadSnapshot(gw.db);
    const admin = await createVerifiedUser({ name: 'Data Audit' });
    await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'data:audit');
    return await fn((path, query) => gw.api('GET', path, { token: admin.idToken, query }), loaded);
  } finally {
    await gw.close();
    await emulator.stop();
  }
}
