/**
 * `npm run data:audit [-- <official CSV>]`: the data audit of issue 25 on the shipped data. Every
 * institution of the official College Scorecard file (by default the demo CSV in ../shared/data, the file
 * the shipped snapshot is built from) is fetched through the API and compared field by field with the
 * file (scripts/data/audit/figures.ts); then the names audit (scripts/data/audit/names.ts): every
 * institution reachable by its display name, the suggestion hit rates and the short names. Exits 1 on any
 * mismatch, unreachable institution, short-name miss or avoidable suggestion miss.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { readShortNames } from '@ct/colleges/short-names';
import { withAuditApp } from './audit/app.ts';
import { auditFigures, type OfficialRow } from './audit/figures.ts';
import { auditNames, printNames } from './audit/names.ts';
import { DEMO_CSV } from './build-snapshot.ts';

async function main(argv: string[]): Promise<number> {
  const file = argv[0] ?? DEMO_CSV;
  const official = parse(fs.readFileSync(file), { columns: true, skip_empty_lines: true }) as OfficialRow[];
  return withAuditApp(async (api, loaded) => {
    console.log(`Snapshot ${loaded.version}; official file ${file}`);
    const f = await auditFigures(api, official);
    console.log(
      `Figures: ${f.checked} of ${f.institutions} institutions fetched through the API, ${f.fields} fields each`,
    );
    console.log(`Mismatches: ${f.mismatches.length}`);
    for (const m of f.mismatches.slice(0, 50))
      console.log(
        `  ${m.unitid} ${m.name} ${m.field}: shown ${JSON.stringify(m.shown)}, official ${JSON.stringify(m.official)}`,
      );
    console.log(`Unreachable (not listed by the API): ${f.unreachable.length}`);
    for (const u of f.unreachable.slice(0, 50)) console.log(`  ${u.unitid} ${u.name}`);
    const names = await auditNames(api, { shortNames: readShortNames() });
    const failures = printNames(names);
    return f.mismatches.length + f.unreachable.length + failures ? 1 : 0;
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
