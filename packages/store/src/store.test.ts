import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase, type TestDatabase } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, migrate, openDb, readMigrations, type Db } from './index.ts';

const MIGRATIONS = [
  {
    id: '001_init',
    sql: `CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE TABLE demo.item (id serial PRIMARY KEY, name text NOT NULL UNIQUE, doc jsonb NOT NULL DEFAULT '{}', n bigint);
          CREATE INDEX item_name_trgm ON demo.item USING gin (name gin_trgm_ops);`,
  },
  { id: '002_more', sql: `ALTER TABLE demo.item ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();` },
];

const engines: Array<{ name: string; open: () => Promise<{ db: Db; cleanup: () => Promise<void> }> }> = [
  {
    name: 'PGlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-pglite-'));
      const db = await openDb({ dataDir: path.join(dir, 'data') });
      return { db, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'Postgres',
    open: async () => {
      const tdb: TestDatabase = await freshDatabase('store');
      const db = await openDb({ url: tdb.url });
      return { db, cleanup: () => tdb.drop() };
    },
  },
];

describe.each(engines)('store on $name', ({ open }) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await open());
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  it('applies migrations once, in order, and records them', async () => {
    expect(await migrate(db, 'demo', MIGRATIONS)).toEqual(['001_init', '002_more']);
    expect(await migrate(db, 'demo', MIGRATIONS)).toEqual([]);
    const r = await db.query<{ id: string }>('SELECT id FROM demo._migrations ORDER BY id');
    expect(r.rows.map((x) => x.id)).toEqual(['001_init', '002_more']);
  });

  it('returns the same value types on both engines', async () => {
    await db.query('INSERT INTO demo.item (name, doc, n) VALUES ($1, $2, $3)', [
      'Harvard University',
      { a: [1] },
      5,
    ]);
    const r = await db.query<{ name: string; doc: unknown; n: number; created_at: Date; c: number }>(
      'SELECT name, doc, n, created_at, (SELECT count(*) FROM demo.item) AS c FROM demo.item WHERE name = $1',
      ['Harvard University'],
    );
    expect(r.rows[0]).toMatchObject({ name: 'Harvard University', doc: { a: [1] }, n: 5, c: 1 });
    expect(r.rows[0]?.created_at).toBeInstanceOf(Date);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO demo.item (name) VALUES ($1)', ['Yale University']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO demo.item (name) VALUES ($1)', ['Brown University']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const names = (await db.query<{ name: string }>('SELECT name FROM demo.item ORDER BY name')).rows.map(
      (r) => r.name,
    );
    expect(names).toEqual(['Harvard University', 'Yale University']);
  });

  it('keeps concurrent transactions apart', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO demo.item (name) VALUES ($1)', [`College ${i}`]);
          await tx.query('UPDATE demo.item SET n = coalesce(n, 0) + 1 WHERE name = $1', ['Yale University']);
        }),
      ),
    );
    const r = await db.query<{ n: number }>('SELECT n FROM demo.item WHERE name = $1', ['Yale University']);
    expect(r.rows[0]?.n).toBe(20);
  });

  it('ranks names by trigram similarity with pg_trgm', async () => {
    const r = await db.query<{ name: string }>(
      `SELECT name FROM demo.item WHERE name % $1 ORDER BY similarity(name, $1) DESC LIMIT 1`,
      ['Havard Univrsity'],
    );
    expect(r.rows[0]?.name).toBe('Harvard University');
  });
});

describe('PGlite data folder', () => {
  it('persists across reopen and refuses a second opener while in use', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ct-pglite-')), 'data');
    const db = await openDb({ dataDir: dir });
    await db.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('note');");
    await expect(openDb({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    await db.close();
    const again = await openDb({ dataDir: dir });
    expect((await again.query<{ v: string }>('SELECT v FROM kept')).rows).toEqual([{ v: 'note' }]);
    await again.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  /** Every file and folder under `dir` (itself included) whose mode gives group or others anything. */
  const openToOthers = (dir: string): string[] => {
    const found: string[] = [];
    const visit = (p: string) => {
      const st = fs.lstatSync(p);
      if ((st.mode & 0o077) !== 0) found.push(`${(st.mode & 0o777).toString(8)} ${path.relative(dir, p)}`);
      if (st.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    };
    visit(dir);
    return found;
  };

  it("keeps a new data folder's files to their owner (issue 35: 969 files were 0666)", async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ct-pglite-')), 'data');
    const db = await openDb({ dataDir: dir });
    try {
      await db.exec("CREATE TABLE t (v text); INSERT INTO t VALUES ('x');");
      const files = fs.readdirSync(dir, { recursive: true });
      expect(files.length).toBeGreaterThan(100);
      expect(files).toContain('postgresql.conf');
      // While it runs, not only once closed.
      expect(openToOthers(dir)).toEqual([]);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, 'pg_hba.conf')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(`${dir}.lock`).mode & 0o077).toBe(0);
    } finally {
      await db.close();
    }
    expect(openToOthers(dir)).toEqual([]);
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('repairs the modes of an existing folder when it starts, and keeps its data', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ct-pglite-')), 'data');
    const db = await openDb({ dataDir: dir });
    await db.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('note');");
    await db.close();
    // What an earlier version left: everything readable and writable by everyone.
    const loosen = (p: string) => {
      const st = fs.lstatSync(p);
      fs.chmodSync(p, st.isDirectory() ? 0o777 : 0o666);
      if (st.isDirectory()) for (const name of fs.readdirSync(p)) loosen(path.join(p, name));
    };
    loosen(dir);
    expect(openToOthers(dir).length).toBeGreaterThan(900);
    const again = await openDb({ dataDir: dir });
    try {
      expect(openToOthers(dir)).toEqual([]);
      expect(fs.statSync(path.join(dir, 'postgresql.conf')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dir, 'global')).mode & 0o777).toBe(0o700);
      expect((await again.query<{ v: string }>('SELECT v FROM kept')).rows).toEqual([{ v: 'note' }]);
    } finally {
      await again.close();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it('keeps every committed row when the process is killed (SIGKILL) right after the commit', async () => {
    // What README and docs/adr/0051 promise for the embedded run: a crashed process loses no commit (a power
    // loss may: PGlite never flushes to disk).
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ct-pglite-')), 'data');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openDb } = await import(${JSON.stringify(new URL('./index.ts', import.meta.url).href)});
         const db = await openDb({ dataDir: ${JSON.stringify(dir)} });
         await db.exec('CREATE TABLE note (id int PRIMARY KEY, body text)');
         for (let i = 1; i <= 50; i++) await db.query('INSERT INTO note VALUES ($1, $2)', [i, 'note ' + i]);
         console.log('committed');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('committed')) resolve();
      });
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.once('exit', (code) => reject(new Error(`exited ${code} before committing: ${out}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // The dead owner's claim on the folder is stale: a new process may open it.
    const again = await openDb({ dataDir: dir });
    try {
      expect((await again.query<{ n: number }>('SELECT count(*)::int AS n FROM note')).rows).toEqual([
        { n: 50 },
      ]);
    } finally {
      await again.close();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  }, 120_000);
});

describe('readMigrations', () => {
  it('reads a folder in order, then each part with its own numbering', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    try {
      fs.mkdirSync(path.join(dir, 'majors'));
      fs.writeFileSync(path.join(dir, '002_more.sql'), 'SELECT 2;');
      fs.writeFileSync(path.join(dir, '001_init.sql'), 'SELECT 1;');
      fs.writeFileSync(path.join(dir, 'majors', '001_profiles.sql'), 'SELECT 3;');
      fs.writeFileSync(path.join(dir, 'notes.md'), 'not a migration');
      expect(readMigrations(dir).map((m) => m.id)).toEqual(['001_init', '002_more', 'majors/001_profiles']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
