// `npm run bench [-- <name>...]`: the benchmarks, one after another, each figure on one line with its
// target, then `N passed, M failed`. Exits 1 when a target is missed (or a figure could not be measured),
// 0 otherwise. Not part of `npm test`.
//
// Without a name: the figures of what users run (serving.bench.ts on `npm start` and the distributed run,
// start.bench.ts, web.bench.ts, and any other module that does not opt out). A name picks a module by file
// name (`serving`, `start`, `admin`...), a figure (`user-colleges`, `add-note`, `checklist-tick`,
// `suggestions`, `search`, `add-college`, `cold-start`, `first-start`, `web-js`) or a run (`embedded`,
// `distributed`); `all` runs every module, the component benchmarks (`inDefaultRun = false`) included.
//
// Environment: BENCH_SECONDS (length of each timed run, default 10), BENCH_PORT (first of the ports the
// benchmark's servers use, default 20100; it takes 60 from there), BENCH_AUTH_EMULATOR_PORT,
// BENCH_CPU_PROF=<dir> (CPU profiles of the server processes), BENCH_KEEP=1 (keep logs and data folders).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { failedFigure, printSummary } from './lib.ts';

interface BenchModule {
  run: (only: string[]) => Promise<void>;
  FIGURES?: readonly string[];
  inDefaultRun?: boolean;
}

const dir = path.dirname(new URL(import.meta.url).pathname);
const args = process.argv.slice(2);
const all = args.includes('all');
const names = args.filter((a) => a !== 'all');
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  // What users run first, then the rest in name order.
  .sort((a, b) => Number(b.startsWith('serving')) - Number(a.startsWith('serving')) || a.localeCompare(b));

let ran = 0;
for (const f of files) {
  const name = f.replace('.bench.ts', '');
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as BenchModule;
  const byName = names.includes(name);
  const figures = names.filter(
    (n) => mod.FIGURES?.includes(n) || (name === 'serving' && (n === 'embedded' || n === 'distributed')),
  );
  const selected = all || byName || figures.length > 0 || (names.length === 0 && mod.inDefaultRun !== false);
  if (!selected) continue;
  ran++;
  console.log(`\n=== ${name} ===`);
  try {
    await mod.run(byName || all ? [] : figures);
  } catch (err) {
    console.error(err);
    failedFigure(name, err);
  }
}
if (ran === 0) {
  console.error(`No benchmark matches ${names.join(', ')}.`);
  process.exit(2);
}
const failed = printSummary();
process.exit(failed > 0 ? 1 : 0);
