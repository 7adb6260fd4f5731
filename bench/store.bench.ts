// The embedded store's durability and what durable commits would cost here (docs/adr/0051): PGlite runs
// Postgres with fsync off and its Node file layer has no fsync, so a commit reaches the OS but not the
// disk. This measures commits as they are, and how many flushes to disk per second this machine's disk
// takes (one flush per commit is what a durable commit needs), to put a number on the difference.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../packages/store/src/index.ts';
import { fmt, report } from './lib.ts';

const SECONDS = Number(process.env.BENCH_STORE_SECONDS ?? 3);

/** Runs `fn` over and over for `seconds`; operations per second. */
async function perSecond(seconds: number, fn: (i: number) => Promise<void> | void): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < until) await fn(n++);
  return n / seconds;
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-store-'));
  try {
    const db = await openDb({ dataDir: path.join(dir, 'pglite') });
    try {
      const fsync = (await db.query<{ fsync: string }>('SHOW fsync')).rows[0]?.fsync;
      report('PGlite fsync setting', String(fsync));
      await db.exec('CREATE TABLE bench_note (id serial PRIMARY KEY, body text NOT NULL)');
      const commits = await perSecond(SECONDS, (i) =>
        db.query('INSERT INTO bench_note (body) VALUES ($1)', [`note ${i}`]).then(() => {}),
      );
      report('PGlite single-row commits (as shipped)', `${fmt(commits)} /s`);
    } finally {
      await db.close();
    }

    // One WAL-sized write and a flush to disk per commit: the floor of a durable commit on this disk.
    const file = path.join(dir, 'flush-probe');
    const fd = fs.openSync(file, 'w');
    const page = Buffer.alloc(8192, 1);
    try {
      const flushes = await perSecond(SECONDS, (i) => {
        fs.writeSync(fd, page, 0, page.length, (i % 128) * page.length);
        fs.fdatasyncSync(fd);
      });
      report('8 KB write + fdatasync (durable-commit ceiling)', `${fmt(flushes)} /s`);
    } finally {
      fs.closeSync(fd);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
