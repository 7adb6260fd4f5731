/**
 * `npm run data:names`: the names part of the data audit (scripts/data/audit/names.ts) on the shipped
 * data, printed as figures and failures. Starts its own embedded app (scripts/data/audit/app.ts) and asks
 * through the API as an admin would. Exits 1 when an institution is unreachable, a short name misses, or a
 * suggestion misses that 10 suggestions could have listed.
 */
import { readShortNames } from '@ct/colleges/short-names';
import { withAuditApp } from './audit/app.ts';
import { auditNames, printNames } from './audit/names.ts';

async function main(): Promise<number> {
  return withAuditApp(async (api, loaded) => {
    const r = await auditNames(api, { shortNames: readShortNames() });
    console.log(`Snapshot ${loaded.version}`);
    return printNames(r) ? 1 : 0;
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
