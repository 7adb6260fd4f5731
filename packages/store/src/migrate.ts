import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './db.ts';

export interface Migration {
  id: string;
  sql: string;
}

const MIGRATION = /^\d{3,}_[\w-]+\.sql$/;

/**
 * Reads `NNN_name.sql` files from a folder, in order, then those of each subfolder (a part of the service
 * with its own numbering, e.g. `majors/001_major_profiles`), subfolders in name order.
 */
export function readMigrations(dir: string, prefix = ''): Migration[] {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  const own = entries
    .filter((e) => e.isFile() && MIGRATION.test(e.name))
    .map((e) => e.name)
    .sort()
    .map((f) => ({ id: prefix + f.replace(/\.sql$/, ''), sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
  const parts = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .flatMap((d) => readMigrations(path.join(dir, d), `${prefix}${d}/`));
  return [...own, ...parts];
}

/**
 * Applies forward-only migrations for one service schema. Safe to run from several replicas at once:
 * a transaction-scoped advisory lock serialises them, and each migration runs in the same transaction
 * as its bookkeeping row.
 */
export async function migrate(db: Db, schema: string, migrations: Migration[]): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`migrate:${schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}._migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await tx.query<{ id: string }>(`SELECT id FROM ${schema}._migrations`)).rows.map((r) => r.id),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query(`INSERT INTO ${schema}._migrations (id) VALUES ($1)`, [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
