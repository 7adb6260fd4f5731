import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '@ct/store';
import { lockUser } from './colleges.ts';

/** A draft as stored, with how many versions it keeps; `presentDraft` makes the API's shape of it. */
export interface DraftRow {
  id: string;
  prompt_key: string;
  prompt: string;
  body: string;
  word_count: number;
  revision: number;
  versions: number;
  created_at: Date;
  updated_at: Date;
}

const DRAFT_COLUMNS = `d.id::text AS id, d.prompt_key, d.prompt, d.body, d.word_count, d.revision, d.created_at,
  d.updated_at, (SELECT count(*)::int FROM user_data.essay_draft_version v WHERE v.draft_id = d.id) AS versions`;

export interface DraftVersionRow {
  id: string;
  body: string;
  word_count: number;
  created_at: Date;
}

/** Only the draft's own columns: the version bookkeeping `findDraft` reads stays in this file. */
const draftRow = (r: DraftRow): DraftRow => ({
  id: r.id,
  prompt_key: r.prompt_key,
  prompt: r.prompt,
  body: r.body,
  word_count: r.word_count,
  revision: r.revision,
  versions: r.versions,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export interface DraftLimits {
  draftsPerUser: number;
  versionsPerDraft: number;
  /** While a student writes, the text being replaced is kept as a version at most this often. */
  autoVersionMinutes: number;
}

export interface DraftSave {
  promptKey: string;
  prompt: string;
  body: string;
  wordCount: number;
  baseRevision: number;
  keepVersion: boolean;
}

/** SQL for essay drafts and their versions; the only place that touches user_data.essay_draft*. */
export class DraftRepository {
  constructor(private readonly db: Db) {}

  async listDrafts(userId: string, q: Queryable = this.db): Promise<DraftRow[]> {
    const r = await q.query<DraftRow>(
      `SELECT ${DRAFT_COLUMNS} FROM user_data.essay_draft d WHERE d.user_id = $1 ORDER BY d.created_at, d.id`,
      [userId],
    );
    return r.rows;
  }

  private async findDraft(tx: Queryable, userId: string, promptKey: string, lock: boolean) {
    const r = await tx.query<DraftRow & { versioned_at: Date }>(
      `SELECT ${DRAFT_COLUMNS},
         coalesce((SELECT max(v.created_at) FROM user_data.essay_draft_version v WHERE v.draft_id = d.id),
                  d.created_at) AS versioned_at,
         (SELECT v.body FROM user_data.essay_draft_version v WHERE v.draft_id = d.id
          ORDER BY v.created_at DESC, v.id LIMIT 1) AS newest_version
       FROM user_data.essay_draft d
       WHERE d.user_id = $1 AND md5(d.prompt_key) = md5($2) AND d.prompt_key = $2${lock ? ' FOR UPDATE' : ''}`,
      [userId, promptKey],
    );
    return (
      (r.rows[0] as (DraftRow & { versioned_at: Date; newest_version: string | null }) | undefined) ?? null
    );
  }

  /**
   * Saves the draft of a prompt in one transaction. A save must start from the revision stored now
   * ('conflict' otherwise: another tab or device saved in between, and its text must not be lost
   * silently). The text being replaced becomes a version when asked (`keepVersion`) or when the last
   * version is older than `autoVersionMinutes`; the oldest versions beyond the limit are dropped.
   */
  async saveDraft(
    userId: string,
    save: DraftSave,
    limits: DraftLimits,
  ): Promise<DraftRow | 'conflict' | 'full'> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'essays', userId);
      const current = await this.findDraft(tx, userId, save.promptKey, true);
      if (!current) {
        const n = await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM user_data.essay_draft WHERE user_id = $1',
          [userId],
        );
        if ((n.rows[0]?.n ?? 0) >= limits.draftsPerUser) return 'full';
        const id = randomUUID();
        await tx.query(
          `INSERT INTO user_data.essay_draft (id, user_id, prompt_key, prompt, body, word_count)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [id, userId, save.promptKey, save.prompt, save.body, save.wordCount],
        );
        return draftRow((await this.findDraft(tx, userId, save.promptKey, false))!);
      }
      if (save.baseRevision !== current.revision) return 'conflict';
      const changed = save.body !== current.body;
      if (!changed && !save.keepVersion) return draftRow(current);
      const autoDue = Date.now() - current.versioned_at.getTime() >= limits.autoVersionMinutes * 60_000;
      const worthKeeping = current.body.trim() !== '' && current.body !== current.newest_version;
      if (worthKeeping && (save.keepVersion || (changed && autoDue))) {
        await tx.query(
          `INSERT INTO user_data.essay_draft_version (id, draft_id, body, word_count) VALUES ($1, $2, $3, $4)`,
          [randomUUID(), current.id, current.body, current.word_count],
        );
        await tx.query(
          `DELETE FROM user_data.essay_draft_version WHERE id IN (
             SELECT id FROM user_data.essay_draft_version WHERE draft_id = $1
             ORDER BY created_at DESC, id OFFSET $2)`,
          [current.id, limits.versionsPerDraft],
        );
      }
      if (changed) {
        await tx.query(
          `UPDATE user_data.essay_draft SET body = $2, word_count = $3, revision = revision + 1, updated_at = now()
           WHERE id = $1`,
          [current.id, save.body, save.wordCount],
        );
      }
      return draftRow((await this.findDraft(tx, userId, save.promptKey, false))!);
    });
  }

  /** The ids of the student's drafts, in the order they were begun (the export reads them one by one). */
  async draftIds(userId: string): Promise<string[]> {
    const r = await this.db.query<{ id: string }>(
      'SELECT id::text AS id FROM user_data.essay_draft WHERE user_id = $1 ORDER BY created_at, id',
      [userId],
    );
    return r.rows.map((x) => x.id);
  }

  /** One of the student's drafts by id; null when it is gone. */
  async draftById(userId: string, id: string): Promise<DraftRow | null> {
    const r = await this.db.query<DraftRow>(
      `SELECT ${DRAFT_COLUMNS} FROM user_data.essay_draft d WHERE d.id = $1 AND d.user_id = $2`,
      [id, userId],
    );
    return r.rows[0] ? draftRow(r.rows[0]) : null;
  }

  /** The ids of a draft's versions, newest first (the export reads them a page at a time). */
  async versionIds(userId: string, draftId: string): Promise<string[]> {
    const r = await this.db.query<{ id: string }>(
      `SELECT v.id::text AS id FROM user_data.essay_draft_version v
       JOIN user_data.essay_draft d ON d.id = v.draft_id AND d.user_id = $2
       WHERE v.draft_id = $1 ORDER BY v.created_at DESC, v.id`,
      [draftId, userId],
    );
    return r.rows.map((x) => x.id);
  }

  /** Some of a draft's versions by id, newest first; those gone meanwhile are left out. */
  async versionsByIds(userId: string, draftId: string, ids: string[]): Promise<DraftVersionRow[]> {
    const r = await this.db.query<DraftVersionRow>(
      `SELECT v.id::text AS id, v.body, v.word_count, v.created_at FROM user_data.essay_draft_version v
       JOIN user_data.essay_draft d ON d.id = v.draft_id AND d.user_id = $2
       WHERE v.draft_id = $1 AND v.id = ANY($3::uuid[]) ORDER BY v.created_at DESC, v.id`,
      [draftId, userId, ids],
    );
    return r.rows;
  }

  /** The earlier versions of one of the student's drafts, newest first; null when there is no such draft. */
  async listVersions(
    userId: string,
    draftId: string,
    q: Queryable = this.db,
  ): Promise<DraftVersionRow[] | null> {
    const owner = await q.query('SELECT 1 FROM user_data.essay_draft WHERE id = $1 AND user_id = $2', [
      draftId,
      userId,
    ]);
    if (!owner.rowCount) return null;
    const r = await q.query<DraftVersionRow>(
      `SELECT id::text AS id, body, word_count, created_at FROM user_data.essay_draft_version
       WHERE draft_id = $1 ORDER BY created_at DESC, id`,
      [draftId],
    );
    return r.rows;
  }

  async deleteAllDrafts(userId: string, tx: Queryable): Promise<number> {
    return (await tx.query('DELETE FROM user_data.essay_draft WHERE user_id = $1', [userId])).rowCount;
  }
}
