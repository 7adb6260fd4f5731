import type { Queryable } from '@ct/store';

/** Every row of every table of every service schema, as a sorted list of row hashes per table. */
export type Snapshot = Map<string, string[]>;

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** Tables of the services' schemas (everything but the system catalogs). */
export async function listTables(db: Queryable): Promise<string[]> {
  const r = await db.query<{ s: string; t: string }>(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
       AND table_schema NOT LIKE 'pg_%'
     ORDER BY 1, 2`,
  );
  return r.rows.map((x) => `${quote(x.s)}.${quote(x.t)}`);
}

/** Row counts and a hash of every row, in one round trip. */
export async function snapshot(db: Queryable): Promise<Snapshot> {
  const tables = await listTables(db);
  const snap: Snapshot = new Map(tables.map((t) => [t, []]));
  if (!tables.length) return snap;
  const sql = tables.map((t, i) => `SELECT ${i} AS i, md5(x::text) AS h FROM ${t} x`).join(' UNION ALL ');
  const r = await db.query<{ i: number; h: string }>(sql);
  for (const row of r.rows) snap.get(tables[row.i]!)!.push(row.h);
  for (const list of snap.values()) list.sort();
  return snap;
}

function multiset(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const h of list) m.set(h, (m.get(h) ?? 0) + 1);
  return m;
}

/** Rows of `before` missing from `after` (changed or deleted), per table. */
function missing(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [table, rows] of before) {
    const now = after.get(table);
    if (!now) {
      out.push(`${table}: table is gone`);
      continue;
    }
    const have = multiset(now);
    let lost = 0;
    for (const h of rows) {
      const n = have.get(h) ?? 0;
      if (n === 0) lost++;
      else have.set(h, n - 1);
    }
    if (lost) out.push(`${table}: ${lost} row(s) changed or deleted`);
  }
  return out;
}

/** Every difference between two snapshots, in words; empty when nothing changed. */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const out = missing(before, after);
  for (const [table, rows] of after) {
    const was = before.get(table);
    if (!was) {
      out.push(`${table}: new table`);
      continue;
    }
    if (rows.length > was.length) out.push(`${table}: ${rows.length - was.length} row(s) added`);
  }
  return out;
}

/** The rows of `a` that `b` also has (as multisets), per table. */
function common(a: Snapshot, b: Snapshot): Snapshot {
  const out: Snapshot = new Map();
  for (const [table, rows] of a) {
    const have = multiset(b.get(table) ?? []);
    const kept: string[] = [];
    for (const h of rows) {
      const n = have.get(h) ?? 0;
      if (n > 0) {
        kept.push(h);
        have.set(h, n - 1);
      }
    }
    out.set(table, kept);
  }
  return out;
}

/**
 * What of `baseline` a request took away: rows other people own that were there just before it (`before`)
 * and are no longer there unchanged. A row an earlier, allowed call changed (an internal route) is not
 * blamed on every request after it.
 */
export function lostFrom(baseline: Snapshot, after: Snapshot, before: Snapshot = baseline): string[] {
  return missing(common(baseline, before), after);
}

/**
 * Snapshots until two in a row are the same (every `intervalMs`, at most `tries` times): the writes of
 * event consumers that a call set off have landed.
 */
export async function settledSnapshot(db: Queryable, intervalMs = 100, tries = 50): Promise<Snapshot> {
  let last = await snapshot(db);
  for (let i = 0; i < tries; i++) {
    await new Promise((r) => setTimeout(r, intervalMs));
    const next = await snapshot(db);
    if (!differences(last, next).length) return next;
    last = next;
  }
  return last;
}

export function rowCount(s: Snapshot): number {
  let n = 0;
  for (const rows of s.values()) n += rows.length;
  return n;
}
