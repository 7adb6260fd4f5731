/**
 * `npm run data:names`: the names part of the data audit (scripts/data/audit/names.ts) on the shipped
 * data, printed as figures and failures. Starts its own embedded app (PGlite in memory, the shipped
 * snapshot, the Auth emulator on AUTH_EMULATOR_PORT or 9420) and asks through the API as an admin would.
 * Exits 1 when an institution is unreachable, a short name misses, or a suggestion misses that 10
 * suggestions could have listed.
 */
import { RoleRepository } from '@ct/auth/repositories/roles';
import { loadSnapshot } from '@ct/colleges/snapshot';
import { readShortNames } from '@ct/colleges/short-names';
import { createVerifiedUser, startTestGateway } from '@ct/testkit';
import { startAuthEmulator } from '../lib/auth-emulator.ts';
import { auditNames } from './audit/names.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function main(): Promise<number> {
  const emulator = await startAuthEmulator({ port: Number(process.env.AUTH_EMULATOR_PORT ?? 9420) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  process.env.LOAD_SNAPSHOT = 'false';
  const gw = await startTestGateway({ store: 'pglite', queue: 'memory', env: { LOG_LEVEL: 'silent' } });
  try {
    const loaded = await loadSnapshot(gw.db);
    const admin = await createVerifiedUser({ name: 'Names Audit' });
    await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'data:names');
    const r = await auditNames((path, query) => gw.api('GET', path, { token: admin.idToken, query }), {
      shortNames: readShortNames(),
    });
    console.log(`Institutions checked: ${r.institutions} (snapshot ${loaded.version})`);
    console.log(`Unreachable by display name: ${r.unreachable.length}`);
    for (const u of r.unreachable) console.log(`  ${u.unitid} ${u.name} -> ${u.found ?? 'nothing'}`);
    console.log(
      `Suggestions, first 6 characters: ${pct(r.hitRate6)} of ${r.sample} (the most 10 suggestions can reach: ${pct(r.ceiling6)})`,
    );
    console.log(
      `Suggestions, first 10 characters: ${pct(r.hitRate10)} of ${r.sample} (the most 10 suggestions can reach: ${pct(r.ceiling10)})`,
    );
    for (const m of [...r.avoidableMisses6, ...r.avoidableMisses10]) console.log(`  avoidable miss: ${m}`);
    console.log(`Short names: ${r.shortNameHits} of ${r.shortNames}`);
    for (const m of r.shortNameMisses)
      console.log(`  ${m.name}: expected ${m.expected}, found ${m.found ?? 'nothing'}`);
    const failed =
      r.unreachable.length +
      r.shortNameMisses.length +
      r.avoidableMisses6.length +
      r.avoidableMisses10.length;
    return failed ? 1 : 0;
  } finally {
    await gw.close();
    await emulator.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
