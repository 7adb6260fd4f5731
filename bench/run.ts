// `npm run bench`: every benchmark, one after another on this machine, printing figures next to targets.
// Each bench module exports `run(): Promise<void>` and prints its own lines.
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
for (const f of files) {
  console.log(`\n=== ${f.replace('.bench.ts', '')} ===`);
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { run: () => Promise<void> };
  await mod.run();
}
process.exit(0);
