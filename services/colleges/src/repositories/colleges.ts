import { normaliseCollegeName, type College } from '@ct/contracts';
import { mergeGovernment } from '@ct/providers';
import type { Db, Queryable } from '@ct/store';
import { shortNameTarget } from '../short-names.ts';

interface CollegeRow {
  id: number;
  document: College;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

function toCollege(r: CollegeRow): College {
  return { ...r.document, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) };
}

/** A line of the admin's listing: the stored document only when the whole of it was asked for. */
export interface CollegeListRow {
  id: number;
  name: string;
  city: string | null;
  state: string | null;
  createdAt: string;
  document: College | null;
}

/** A cached college found by name, with what the search route needs to know about its facts. */
export interface CollegeHit {
  id: number;
  college: College;
  /** false for a college known only from the bulk import of government data */
  factsGathered: boolean;
  /** true when an ingestion request already exists for it (so none is started again) */
  requested: boolean;
  /** false for a college private to the students who asked for it (waiting for an admin's review) */
  shared: boolean;
}

export interface UpsertOptions {
  /**
   * `replace` (default): the document is the whole truth about the college (the ingestion worker, seeds).
   * `government`: only demographics and finance are new (the bulk import); gathered facts are kept.
   */
  mode?: 'replace' | 'government';
  /** For `replace`: whether the document carries the college facts (false: kept from the stored row). */
  factsGathered?: boolean;
  /**
   * Only new rows: a document that matches a stored row (by Scorecard id or name) is not stored and its
   * result is null. Ingestion uses it so an AI answer never lands on a college it was not matched to.
   */
  insertOnly?: boolean;
  /**
   * Where the document's aliases come from: `official` (default: the College Scorecard's, the official
   * name a disambiguated college keeps) or `approved` (an admin approved a college an AI answer found:
   * its names never outrank an official name or alias of another institution).
   */
  aliasOrigin?: 'official' | 'approved';
}

/** A stored row: its id, its (kept) name and the document as stored. */
export interface StoredCollege {
  id: number;
  name: string;
  document: College;
}

export interface UpsertResult {
  /** Stored row of each document, in order; null when it could not be stored (name taken meanwhile). */
  rows: Array<StoredCollege | null>;
  inserted: number;
  updated: number;
}

interface Existing {
  id: number;
  name: string;
  normalized_name: string;
  scorecard_id: number | null;
  document: College;
  facts: boolean;
}

/** "Columbia College (Columbia, MO)": the stored name of an institution whose official name is taken. */
export function disambiguatedName(doc: College): string {
  const place = [doc.demographics.schoolCity, doc.demographics.schoolState].filter(Boolean).join(', ');
  return place ? `${doc.name} (${place})` : `${doc.name} (#${doc.scorecardId ?? '?'})`;
}

/**
 * True when an alias is the college's own official name, kept because its stored name tells it apart
 * ("Columbia College" of "Columbia College (Columbia, MO)", "Western Technical College (El Paso, TX)" of
 * "Western Technical College (El Paso, TX, 1,303 undergraduates)"): it outranks any other alias.
 */
export function isOwnName(alias: string, storedName: string): boolean {
  const a = alias.trim().toLowerCase();
  const s = storedName.toLowerCase();
  return s.startsWith(`${a} (`) || (a.endsWith(')') && s.startsWith(`${a.slice(0, -1)}, `));
}

/**
 * The one name resolver's query (migration 040): a function, so its plan is cached per connection. The
 * second parameter is the institution a curated short name stands for ("MIT"), or null.
 */
const HIT_SQL = 'SELECT * FROM colleges.resolve_college($1, $2)';

/** Writes this process made to each store's college table (names, aliases), counted as each is made. */
const writesByStore = new WeakMap<object, number>();

/**
 * How many writes this process has made to the colleges of `db` (counted after their statements ran, so a
 * query that sees the new count also sees the data, once committed). With PGlite this process is the only
 * writer, so an unchanged count means an unchanged table (see SuggestionIndex).
 */
export function collegeWrites(db: object): number {
  return writesByStore.get(db) ?? 0;
}

/** SQL for the college cache; the only place that touches colleges.college and its aliases. */
export class CollegeRepository {
  constructor(private readonly db: Queryable & Partial<Pick<Db, 'transaction'>>) {}

  /** Counts a write to the colleges (see collegeWrites), once its statements ran. */
  private wrote(): void {
    writesByStore.set(this.db, collegeWrites(this.db) + 1);
  }

  /**
   * Inserts or updates one college (see upsertColleges). Idempotent: the same document twice is one row.
   * Returns the stored row's id and name (a stored college keeps its name, which students' lists refer to).
   */
  async upsertCollege(doc: College, opts: UpsertOptions = {}, tx?: Queryable): Promise<StoredCollege> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const r = await this.upsertColleges([doc], opts, tx);
      if (r.rows[0]) return r.rows[0];
    }
    throw new Error(`could not store college ${doc.name}: its name keeps being taken`);
  }

  /**
   * Inserts or updates colleges in a few statements (batched for the bulk import). A document matches a
   * stored row by Scorecard id, else by normalised name when that row is not another institution; an
   * institution whose official name another one already has is stored as "Name (City, ST)". Runs in one
   * transaction (the caller's, or its own).
   */
  async upsertColleges(docs: College[], opts: UpsertOptions = {}, tx?: Queryable): Promise<UpsertResult> {
    if (!docs.length) return { rows: [], inserted: 0, updated: 0 };
    if (!tx && this.db.transaction) return this.db.transaction((t) => this.upsertColleges(docs, opts, t));
    const q = tx ?? this.db;
    const mode = opts.mode ?? 'replace';
    const factsGathered = opts.factsGathered ?? true;

    const names = docs.flatMap((d) => [
      normaliseCollegeName(d.name),
      normaliseCollegeName(disambiguatedName(d)),
    ]);
    const ids = docs.map((d) => d.scorecardId).filter((x): x is number => x !== null);
    const found = await q.query<Existing>(
      `SELECT id, name, normalized_name, scorecard_id, document, facts_gathered_at IS NOT NULL AS facts
       FROM colleges.college WHERE id IN (
         SELECT c.id FROM unnest($1::int[]) AS s(id) JOIN colleges.college c ON c.scorecard_id = s.id
         UNION
         SELECT c.id FROM unnest($2::text[]) AS n(name) JOIN colleges.college c ON c.normalized_name = n.name)
       ORDER BY id FOR UPDATE`,
      [ids, names],
    );
    const bySid = new Map<number, Existing>();
    const byName = new Map<string, Existing>();
    for (const e of found.rows) {
      if (e.scorecard_id !== null) bySid.set(e.scorecard_id, e);
      byName.set(e.normalized_name, e);
    }
    const taken = new Set(byName.keys());

    type Plan =
      | { kind: 'update'; index: number; row: Existing; document: College; factsAt: 'keep' | 'now' }
      | { kind: 'insert'; index: number; name: string; normalized: string; document: College };
    const plans: Plan[] = [];
    docs.forEach((doc, index) => {
      const normalized = normaliseCollegeName(doc.name);
      if (!normalized) throw new Error('a college needs a name');
      let row = doc.scorecardId !== null ? bySid.get(doc.scorecardId) : undefined;
      let name = doc.name;
      if (!row) {
        const same = byName.get(normalized);
        const sameInstitution =
          same &&
          (same.scorecard_id === null || doc.scorecardId === null || same.scorecard_id === doc.scorecardId);
        if (same && sameInstitution) row = same;
        else if (same || taken.has(normalized)) name = disambiguatedName(doc);
      }
      if (row && opts.insertOnly) return;
      if (row) {
        let document: College;
        let factsAt: 'keep' | 'now' = 'keep';
        if (mode === 'government') document = mergeGovernment(row.document, doc);
        else if (factsGathered || !row.facts) {
          document = doc;
          factsAt = factsGathered ? 'now' : 'keep';
        } else if (doc.sources.demographics) document = mergeGovernment(row.document, doc);
        else document = row.document;
        plans.push({ kind: 'update', index, row, document: { ...document, name: row.name }, factsAt });
        return;
      }
      const n = normaliseCollegeName(name);
      if (opts.insertOnly && name !== doc.name) return; // its name is taken: never stored under another
      if (taken.has(n)) return; // two institutions of the same name and place in one batch: keep the first
      taken.add(n);
      plans.push({ kind: 'insert', index, name, normalized: n, document: { ...doc, name } });
    });

    const rows: UpsertResult['rows'] = docs.map(() => null);
    const updates = plans.filter((p) => p.kind === 'update');
    if (updates.length) {
      await q.query(
        `UPDATE colleges.college c SET
           document = u.document, scorecard_id = coalesce(u.scorecard_id, c.scorecard_id),
           city = u.document #>> '{demographics,schoolCity}', state = u.document #>> '{demographics,schoolState}',
           facts_gathered_at = CASE WHEN u.facts_now THEN now() ELSE c.facts_gathered_at END,
           updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS u(id bigint, document jsonb, scorecard_id integer, facts_now boolean)
         WHERE c.id = u.id`,
        [
          JSON.stringify(
            updates.map((p) => ({
              id: p.row.id,
              document: p.document,
              scorecard_id: p.document.scorecardId,
              facts_now: p.factsAt === 'now',
            })),
          ),
        ],
      );
      for (const p of updates) rows[p.index] = { id: p.row.id, name: p.row.name, document: p.document };
    }
    const inserts = plans.filter((p) => p.kind === 'insert');
    let inserted = 0;
    if (inserts.length) {
      const r = await q.query<{ id: number; normalized_name: string }>(
        `INSERT INTO colleges.college (name, normalized_name, scorecard_id, city, state, document, facts_gathered_at)
         SELECT i.name, i.normalized_name, i.scorecard_id, i.document #>> '{demographics,schoolCity}',
                i.document #>> '{demographics,schoolState}', i.document,
                CASE WHEN i.facts THEN now() END
         FROM jsonb_to_recordset($1::jsonb)
           AS i(name text, normalized_name text, scorecard_id integer, document jsonb, facts boolean)
         ON CONFLICT DO NOTHING
         RETURNING id, normalized_name`,
        [
          JSON.stringify(
            inserts.map((p) => ({
              name: p.name,
              normalized_name: p.normalized,
              scorecard_id: p.document.scorecardId,
              document: p.document,
              facts: mode === 'replace' && factsGathered,
            })),
          ),
        ],
      );
      const idOf = new Map(r.rows.map((x) => [x.normalized_name, x.id]));
      for (const p of inserts) {
        const id = idOf.get(p.normalized);
        if (id !== undefined) rows[p.index] = { id, name: p.name, document: p.document };
      }
      inserted = r.rows.length;
    }

    // Aliases, rebuilt for every stored row from its document
    const stored = plans
      .map((p) => ({ p, row: rows[p.index] }))
      .filter((x): x is { p: Plan; row: StoredCollege } => !!x.row);
    if (stored.length) {
      // Names an admin approved are kept (the document lists them too; inserting them again changes nothing).
      await q.query(
        "DELETE FROM colleges.college_alias WHERE college_id = ANY($1::bigint[]) AND origin = 'official'",
        [stored.map((x) => x.row.id)],
      );
      const aliasRows: Array<{
        college_id: number;
        alias: string;
        normalized_alias: string;
        origin: 'name' | 'official' | 'approved';
      }> = [];
      for (const { p, row } of stored) {
        const own = normaliseCollegeName(row.name);
        const seen = new Set<string>([own]);
        // A disambiguated name keeps the official name findable as an alias.
        const official = docs[p.index]!.name;
        for (const [i, a] of [official, ...p.document.aliases].entries()) {
          const n = normaliseCollegeName(a);
          if (!n || seen.has(n)) continue;
          seen.add(n);
          // Every name of a college an admin approved came from an AI answer: none ranks as official.
          const origin =
            opts.aliasOrigin === 'approved'
              ? 'approved'
              : i === 0 || isOwnName(a, row.name)
                ? 'name'
                : 'official';
          aliasRows.push({ college_id: row.id, alias: a, normalized_alias: n, origin });
        }
      }
      if (aliasRows.length) {
        await q.query(
          `INSERT INTO colleges.college_alias (college_id, alias, normalized_alias, origin)
           SELECT college_id, alias, normalized_alias, origin
           FROM jsonb_to_recordset($1::jsonb)
             AS a(college_id bigint, alias text, normalized_alias text, origin text)
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(aliasRows)],
        );
      }
    }
    this.wrote();
    return { rows, inserted, updated: updates.length };
  }

  /**
   * The one name resolver: a college by official name, official alias or curated short name ("MIT"), a
   * name an admin approved, or the name a student typed when asking for it (a finished ingestion
   * request), case- and punctuation-insensitive, in that order; among several colleges of one rank, the
   * largest. AI names waiting for review are never used.
   */
  async findCollege(name: string, q: Queryable = this.db): Promise<CollegeHit | null> {
    const n = normaliseCollegeName(name);
    if (!n) return null;
    const r = await q.query<CollegeRow & { facts: boolean; requested: boolean }>(HIT_SQL, [
      n,
      shortNameTarget(n),
    ]);
    const row = r.rows[0];
    return row
      ? {
          id: row.id,
          college: toCollege(row),
          factsGathered: row.facts,
          requested: row.requested,
          shared: true,
        }
      : null;
  }

  /**
   * What one student finds under a name: a shared college (see findCollege), else a college private to
   * them (kept for review) by its name or the name they typed. Without a viewer, shared colleges only.
   */
  async findVisible(name: string, viewer: string | null, q: Queryable = this.db): Promise<CollegeHit | null> {
    const shared = await this.findCollege(name, q);
    if (shared || !viewer) return shared;
    const n = normaliseCollegeName(name);
    if (!n) return null;
    const r = await q.query<CollegeRow>(
      `SELECT p.id, p.document, p.created_at, p.updated_at FROM colleges.private_college p
       JOIN colleges.private_college_viewer v ON v.college_id = p.id AND v.uid = $2
       WHERE p.normalized_name = $1 OR p.key = $1
       ORDER BY (p.normalized_name = $1) DESC, p.id LIMIT 1`,
      [n, viewer],
    );
    const row = r.rows[0];
    return row
      ? { id: row.id, college: toCollege(row), factsGathered: true, requested: true, shared: false }
      : null;
  }

  /** A college by official name or alias (see findVisible). */
  async findCollegeByName(name: string, viewer: string | null = null): Promise<College | null> {
    return (await this.findVisible(name, viewer))?.college ?? null;
  }

  /** The stored row of an institution, locked for the caller's transaction. */
  async lockByScorecardId(scorecardId: number, tx: Queryable): Promise<StoredCollege | null> {
    const r = await tx.query<{ id: number; name: string; document: College }>(
      'SELECT id, name, document FROM colleges.college WHERE scorecard_id = $1 FOR UPDATE',
      [scorecardId],
    );
    return r.rows[0] ?? null;
  }

  /** A stored row by id, locked for the caller's transaction. */
  async lockById(id: number, tx: Queryable): Promise<StoredCollege | null> {
    const r = await tx.query<{ id: number; name: string; document: College }>(
      'SELECT id, name, document FROM colleges.college WHERE id = $1 FOR UPDATE',
      [id],
    );
    return r.rows[0] ?? null;
  }

  /** A stored row without a Scorecard id by its normalised name, locked for the caller's transaction. */
  async lockUnmatchedByName(name: string, tx: Queryable): Promise<StoredCollege | null> {
    const r = await tx.query<{ id: number; name: string; document: College }>(
      `SELECT id, name, document FROM colleges.college WHERE normalized_name = $1 AND scorecard_id IS NULL
       FOR UPDATE`,
      [normaliseCollegeName(name)],
    );
    return r.rows[0] ?? null;
  }

  /** Inserts a new college; null when a stored college has its name or Scorecard id (nothing is changed). */
  async insertCollege(
    doc: College,
    factsGathered: boolean,
    tx: Queryable,
    aliasOrigin: 'official' | 'approved' = 'official',
  ): Promise<StoredCollege | null> {
    const r = await this.upsertColleges(
      [doc],
      { mode: 'replace', factsGathered, insertOnly: true, aliasOrigin },
      tx,
    );
    return r.rows[0] ?? null;
  }

  /**
   * Adds names an admin decided on (a merged college's, an approved AI name) to a college's aliases, in
   * its document and the alias index, so they find it (below official names and aliases).
   */
  async addAliases(id: number, names: string[], tx: Queryable): Promise<void> {
    const row = await this.lockById(id, tx);
    if (!row) return;
    const own = normaliseCollegeName(row.name);
    const seen = new Set([own, ...row.document.aliases.map(normaliseCollegeName)]);
    const added = names.filter((a) => {
      const n = normaliseCollegeName(a);
      if (!n || seen.has(n)) return false;
      seen.add(n);
      return true;
    });
    if (!added.length) return;
    const document: College = { ...row.document, aliases: [...row.document.aliases, ...added] };
    await tx.query('UPDATE colleges.college SET document = $2::jsonb, updated_at = now() WHERE id = $1', [
      id,
      JSON.stringify(document),
    ]);
    await tx.query(
      `INSERT INTO colleges.college_alias (college_id, alias, normalized_alias, origin)
       SELECT $1, a, n, 'approved' FROM unnest($2::text[], $3::text[]) AS x(a, n) ON CONFLICT DO NOTHING`,
      [id, added, added.map(normaliseCollegeName)],
    );
    this.wrote();
  }

  /** Replaces a stored college's document (an admin approved a held fact); its names stay as they are. */
  async saveDocument(id: number, doc: College, tx: Queryable): Promise<void> {
    await tx.query('UPDATE colleges.college SET document = $2::jsonb, updated_at = now() WHERE id = $1', [
      id,
      JSON.stringify(doc),
    ]);
    this.wrote();
  }

  /** Deletes a college (its aliases go with it); the deleted row, or null when there was none. */
  async deleteCollege(id: number, tx: Queryable): Promise<StoredCollege | null> {
    const r = await tx.query<{ id: number; name: string; document: College }>(
      'DELETE FROM colleges.college WHERE id = $1 RETURNING id, name, document',
      [id],
    );
    this.wrote();
    return r.rows[0] ?? null;
  }

  /**
   * Remembers that an admin removed a Scorecard institution (deleted it, or merged it into a college that
   * did not take over its Scorecard id), so bulk loads do not bring it back. Nothing is recorded while
   * another stored college still carries the id.
   */
  async rememberRemovedInstitution(
    removed: College,
    action: 'deleted' | 'merged',
    mergedInto: string | null,
    tx: Queryable,
  ): Promise<void> {
    if (removed.scorecardId === null) return;
    await tx.query(
      `INSERT INTO colleges.removed_institution (scorecard_id, name, action, merged_into)
       SELECT $1, $2, $3, $4
       WHERE NOT EXISTS (SELECT 1 FROM colleges.college WHERE scorecard_id = $1)
       ON CONFLICT (scorecard_id) DO UPDATE
         SET name = excluded.name, action = excluded.action, merged_into = excluded.merged_into,
             removed_at = now()`,
      [removed.scorecardId, removed.name, action, mergedInto],
    );
  }

  /** Which of these Scorecard ids an admin removed (see rememberRemovedInstitution). */
  async removedInstitutions(ids: number[], q: Queryable = this.db): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const r = await q.query<{ scorecard_id: number }>(
      'SELECT scorecard_id FROM colleges.removed_institution WHERE scorecard_id = ANY($1::int[])',
      [ids],
    );
    return new Set(r.rows.map((x) => x.scorecard_id));
  }

  /** Colleges for the admin listing: filtered by a part of the name, newest first, paginated. */
  async listColleges(filter: {
    name?: string | undefined;
    full: boolean;
    limit: number;
    offset: number;
  }): Promise<{ total: number; rows: CollegeListRow[] }> {
    const params: unknown[] = [];
    let where = '';
    const n = filter.name ? normaliseCollegeName(filter.name) : '';
    if (n) {
      params.push(`%${n}%`);
      where = `WHERE c.normalized_name LIKE $1`;
    }
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM colleges.college c ${where}`,
      params,
    );
    const rows = await this.db.query<
      CollegeRow & { name: string; city: string | null; state: string | null }
    >(
      `SELECT c.id, c.name, c.city, c.state, c.created_at, c.updated_at
              ${filter.full ? ', c.document' : ', NULL::jsonb AS document'}
       FROM colleges.college c ${where}
       ORDER BY c.created_at DESC, c.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return {
      total: total.rows[0]?.n ?? 0,
      rows: rows.rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        city: r.city,
        state: r.state,
        createdAt: iso(r.created_at),
        document: filter.full && r.document ? toCollege(r) : null,
      })),
    };
  }

  async countColleges(): Promise<number> {
    const r = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM colleges.college');
    return r.rows[0]?.n ?? 0;
  }

  /** The shared college of a College Scorecard institution (its UNITID), if it is stored. */
  async getByScorecardId(scorecardId: number, q: Queryable = this.db): Promise<College | null> {
    const r = await q.query<CollegeRow>(
      'SELECT id, document, created_at, updated_at FROM colleges.college WHERE scorecard_id = $1',
      [scorecardId],
    );
    return r.rows[0] ? toCollege(r.rows[0]) : null;
  }

  /** The stored document by row id. */
  async getById(id: number, q: Queryable = this.db): Promise<College | null> {
    const r = await q.query<CollegeRow>(
      'SELECT id, document, created_at, updated_at FROM colleges.college WHERE id = $1',
      [id],
    );
    return r.rows[0] ? toCollege(r.rows[0]) : null;
  }
}
