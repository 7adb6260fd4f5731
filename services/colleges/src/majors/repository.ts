import { pendingRows } from '@ct/jobs';
import type { MajorProfile, MajorProfileState } from '@ct/contracts';
import type { Db } from '@ct/store';

export interface MajorProfileRow {
  key: string;
  collegeName: string;
  cip: string;
  major: string;
  state: MajorProfileState;
  stage: string;
  attempts: number;
  failureReason: string | null;
  profile: MajorProfile | null;
  updatedAt: Date;
}

interface DbRow {
  key: string;
  college_name: string;
  cip: string;
  major: string;
  state: MajorProfileState;
  stage: string;
  attempts: number;
  failure_reason: string | null;
  profile: MajorProfile | null;
  updated_at: Date;
}

/** The stage a major job reports first on every try. */
export const FIRST_STAGE = 'ai-research';

const COLUMNS = 'key, college_name, cip, major, state, stage, attempts, failure_reason, profile, updated_at';

function toRow(r: DbRow): MajorProfileRow {
  return {
    key: r.key,
    collegeName: r.college_name,
    cip: r.cip,
    major: r.major,
    state: r.state,
    stage: r.stage,
    attempts: r.attempts,
    failureReason: r.failure_reason,
    profile: r.profile,
    updatedAt: r.updated_at,
  };
}

export interface ProfileRequest {
  key: string;
  collegeName: string;
  normalizedCollege: string;
  cip: string;
  major: string;
}

/** SQL for major profiles; the only place that touches colleges.major_profile. */
export class MajorProfileRepository {
  constructor(private readonly db: Db) {}

  async findProfile(key: string): Promise<MajorProfileRow | null> {
    const r = await this.db.query<DbRow>(`SELECT ${COLUMNS} FROM colleges.major_profile WHERE key = $1`, [
      key,
    ]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  /**
   * Records a request for a profile. Returns the row when this call created it or queued it again (a
   * failure older than `retryFailedAfterMs`, or a "not found" older than `retryNotFoundAfterMs`): the
   * caller then enqueues the job. Returns null when the request already existed as it was; of many
   * concurrent callers exactly one gets the row.
   */
  async requestProfile(
    req: ProfileRequest,
    opts: {
      retryFailedAfterMs: number;
      retryNotFoundAfterMs: number;
      /** An AI provider is configured now: a "not found" decided without one is asked again at once. */
      aiConfigured?: boolean;
    },
  ): Promise<MajorProfileRow | null> {
    const r = await this.db.query<DbRow>(
      `INSERT INTO colleges.major_profile (key, college_name, normalized_college, cip, major, state, stage)
       VALUES ($1, $2, $3, $4, $5, 'queued', 'queued')
       ON CONFLICT (key) DO UPDATE SET
         state = 'queued', stage = 'queued', failure_reason = NULL, attempts = 0, college_name = EXCLUDED.college_name,
         major = EXCLUDED.major, requested_at = now(), updated_at = now(), without_ai = false
       WHERE (colleges.major_profile.state = 'failed'
              AND colleges.major_profile.updated_at < now() - make_interval(secs => $6::double precision / 1000))
          OR (colleges.major_profile.state = 'not_found'
              AND (colleges.major_profile.updated_at < now() - make_interval(secs => $7::double precision / 1000)
                   OR (colleges.major_profile.without_ai AND $8::boolean)))
       RETURNING ${COLUMNS}`,
      [
        req.key,
        req.collegeName,
        req.normalizedCollege,
        req.cip,
        req.major,
        opts.retryFailedAfterMs,
        opts.retryNotFoundAfterMs,
        opts.aiConfigured ?? true,
      ],
    );
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  /**
   * Applies what the worker reports. Once a profile is gathered, only a newer profile replaces it (a late
   * "running" or a failed refresh leaves it as it is). A "not found" while no AI provider is configured is
   * marked as such (`without_ai`), so it is asked again once one is. Returns false when there is no such
   * request.
   */
  async recordProgress(
    key: string,
    update: {
      state: Exclude<MajorProfileState, 'queued'>;
      stage?: string | undefined;
      profile?: MajorProfile | undefined;
      reason?: string | undefined;
    },
    opts: { aiConfigured: boolean } = { aiConfigured: true },
  ): Promise<boolean> {
    const r = await this.db.query<{ key: string }>(
      `UPDATE colleges.major_profile SET
         state = $2,
         stage = coalesce($3, $2),
         -- A try begins with its first stage: that report counts the try (the row is the one count).
         attempts = attempts + CASE WHEN $2 = 'running' AND $3 = '${FIRST_STAGE}' THEN 1 ELSE 0 END,
         profile = CASE WHEN $2 = 'done' THEN $4::jsonb ELSE NULL END,
         gathered_at = CASE WHEN $2 = 'done' THEN now() ELSE NULL END,
         failure_reason = CASE WHEN $2 IN ('failed', 'not_found') THEN $5 ELSE NULL END,
         without_ai = ($2 = 'not_found' AND NOT $6::boolean),
         updated_at = now()
       WHERE key = $1 AND (state <> 'done' OR $2 = 'done')
       RETURNING key`,
      [
        key,
        update.state,
        update.stage ?? null,
        update.profile ? JSON.stringify(update.profile) : null,
        update.reason ?? null,
        opts.aiConfigured,
      ],
    );
    if (r.rowCount > 0) return true;
    return (await this.findProfile(key)) !== null;
  }

  /**
   * Records that a student asked for a profile, within their daily quota of major profiles (AI work):
   * false, and nothing recorded, when it is spent. Asking again for the same profile is free.
   * Serialised per student, so parallel requests cannot slip past.
   */
  async takeQuota(key: string, uid: string, quota: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`colleges:major-quota:${uid}`]);
      const seen = await tx.query('SELECT 1 FROM colleges.major_requester WHERE key = $1 AND uid = $2', [
        key,
        uid,
      ]);
      if (seen.rows.length) return true;
      const r = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM colleges.major_requester
         WHERE uid = $1 AND first_at > now() - interval '1 day'`,
        [uid],
      );
      if ((r.rows[0]?.n ?? 0) >= quota) return false;
      await tx.query('INSERT INTO colleges.major_requester (key, uid) VALUES ($1, $2)', [key, uid]);
      return true;
    });
  }

  /** Ends a request still waiting or running as failed (its job was lost for good, or its tries spent). */
  async giveUp(key: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE colleges.major_profile SET state = 'failed', stage = 'failed', failure_reason = $2,
         updated_at = now()
       WHERE key = $1 AND state IN ('queued', 'running')`,
      [key, reason],
    );
  }

  /** Requests still waiting or running, oldest first (re-enqueued when their job was lost). */
  async listPending(limit = 500): Promise<MajorProfileRow[]> {
    return (await pendingRows<DbRow>(this.db, 'colleges.major_profile', COLUMNS, limit)).map(toRow);
  }

  /** CIP codes with the official names of the colleges that have a gathered profile for them. */
  async collegesByMajor(cips: readonly string[] | null): Promise<Array<{ cip: string; colleges: string[] }>> {
    const r = await this.db.query<{ cip: string; colleges: string[] }>(
      `SELECT cip, array_agg(college_name ORDER BY college_name) AS colleges
       FROM colleges.major_profile
       WHERE state = 'done' AND ($1::text[] IS NULL OR cip = ANY($1::text[]))
       GROUP BY cip`,
      [cips],
    );
    return r.rows;
  }
}
