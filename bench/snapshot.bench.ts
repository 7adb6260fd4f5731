// The College Scorecard snapshot shipped with the product: its size, and how long the first start takes to
// load it (every institution as a complete college, with the Common App grid facts) on the embedded store
// (PGlite) and on Postgres, and how long a later start takes to see it is there. Self-contained: prints its
// own lines. Run alone with `npm run bench -- snapshot`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { freshDatabase } from '../tests/kit/src/db.ts';
import { migrateModule, type ServiceModule } from '../packages/service-kit/src/index.ts';
import { openDb, type Db } from '../packages/store/src/index.ts';
import collegesService from '../services/colleges/src/app.ts';
import { SNAPSHOT_FILE } from '../services/colleges/src/snapshot-file.ts';
import { loadSnapshot } from '../services/colleges/src/snapshot.ts';
import { report } from './lib.ts';

const GRID_FILE = new URL('../packages/providers/data/common-app-grid.json', import.meta.url);
const TARGET_LOAD_S = 10; // "a few seconds": a fresh clone shows data within 30 s of `npm start`

// Figure lines of the shared summary (targets count in `N passed, M failed`).
const line = report;
const kib = (n: number) => `${(n / 1024).toLocaleString('en-US', { maximumFractionDigits: 0 })} KiB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timeLoads(db: Db, store: string): Promise<void> {
  await migrateModule(db, collegesService as unknown as ServiceModule);
  const first = await loadSnapshot(db);
  line(
    `first-start load, ${store} (${first.colleges.toLocaleString('en-US')} colleges)`,
    secs(first.ms),
    `< ${TARGET_LOAD_S} s`,
    first.ms < TARGET_LOAD_S * 1000,
  );
  line(
    `  colleges loaded per second`,
    `${Math.round((first.colleges / first.ms) * 1000).toLocaleString('en-US')} /s`,
  );
  const t = performance.now();
  const again = await loadSnapshot(db);
  line(`  later start (${again.skipped ?? 'loaded again'})`, `${(performance.now() - t).toFixed(0)} ms`);
}

export async function run(): Promise<void> {
  const snapshot = fs.statSync(SNAPSHOT_FILE).size;
  line('snapshot file (gzipped JSON)', kib(snapshot), '< 3 MiB', snapshot < 3 * 1024 * 1024);
  const grid = fs.readFileSync(GRID_FILE);
  line('Common App grid facts (JSON, bundled)', kib(grid.length));
  line('  gzipped, as shipped inside a bundle', kib(gzipSync(grid).length));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-snapshot-'));
  const pglite = await openDb({ dataDir: path.join(dir, 'pglite') });
  try {
    await timeLoads(pglite, 'PGlite on disk');
  } finally {
    await pglite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const database = await freshDatabase('bench_snapshot');
  const pg = await openDb({ url: database.url });
  try {
    await timeLoads(pg, 'Postgres');
  } finally {
    await pg.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
