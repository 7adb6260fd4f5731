import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase, type TestDatabase } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, migrate, openDb, type Db } from './index.ts';

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
});
