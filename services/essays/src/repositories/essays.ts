import { createHash } from 'node:crypto';
import { normaliseCollegeName, type PromptCategory } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';
import { pendingRows } from '@ct/jobs';
import { categorisePrompt } from '../categories.ts';

/** Text as Postgres can store it: NUL and other control characters (but line breaks and tabs) removed. */
export function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

/** Prompt texts are compared without regard to case and spacing. */
export function promptKey(text: string): string {
  return createHash('md5')
    .update(text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase())
    .digest('hex');
}

export interface PromptInput {
  text: string;
  wordLimit?: number | null | undefined;
  wordMin?: number | null | undefined;
  sourceUrl?: string | null | undefined;
  note?: string | null | undefined;
}

export interface CollegeRow {
  id: number;
  name: string;
}

export type ExampleState = 'queued' | 'running' | 'done' | 'failed' | 'unavailable';

export interface ExampleRequestRow {
  /** The prompt's key */
  key: string;
  promptText: string;
  wordLimit: number | null;
  state: ExampleState;
  failureReason: string | null;
  /** Tries so far (the one count: a job gets the tries its row has left) */
  attempts: number;
  updatedAt: Date;
}

/** A prompt as stored; `presentPrompt` makes the API's shape of it. */
export interface PromptRow {
  text: string;
  word_limit: number | null;
  word_min: number | null;
  category: PromptCategory;
  source_url: string | null;
  note: string | null;
}

/** A prompt of one of the named colleges, with the college's stored name. */
export type CollegePromptRow = Pick<PromptRow, 'text' | 'word_limit' | 'category'> & { name: string };

/** An example essay as stored; `presentExample` gives it the label every example carries. */
export interface ExampleRow {
  id: number;
  title: string | null;
  body: string;
  origin: 'ai' | 'admin';
  created_at: Date;
}

const PROMPT_COLUMNS = 'text, word_limit, word_min, category, source_url, note';

/** SQL of the essays service; the only place that touches the essays schema. */
export class EssaysRepository {
  constructor(private readonly db: Db) {}

  /**
   * Creates or updates a college and, when prompts are given, makes them its prompt list (in order),
   * in one transaction. With no prompts the college's known prompts are kept: a gathering that found
   * none must not erase what an earlier one found.
   */
  async saveCollegePrompts(
    college: { name: string; aliases?: readonly string[]; kind?: 'college' | 'application' },
    prompts: readonly PromptInput[],
  ): Promise<void> {
    const normalized = normaliseCollegeName(college.name);
    if (!normalized) return;
    const aliases = [...new Set((college.aliases ?? []).map(normaliseCollegeName))].filter(
      (a) => a && a !== normalized,
    );
    const unique = new Map<string, PromptInput>();
    for (const p of prompts) {
      const text = cleanText(p.text).trim();
      if (text && !unique.has(promptKey(text))) unique.set(promptKey(text), { ...p, text });
    }
    await this.db.transaction(async (tx) => {
      const r = await tx.query<{ id: number }>(
        `INSERT INTO essays.college (name, normalized_name, normalized_aliases, kind)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (normalized_name) DO UPDATE SET
           name = EXCLUDED.name, normalized_aliases = EXCLUDED.normalized_aliases, kind = EXCLUDED.kind,
           updated_at = now()
         RETURNING id`,
        [cleanText(college.name), normalized, aliases, college.kind ?? 'college'],
      );
      const id = r.rows[0]!.id;
      if (!unique.size) return;
      const keys = [...unique.keys()];
      await tx.query(
        'DELETE FROM essays.prompt WHERE college_id = $1 AND NOT (prompt_key = ANY($2::text[]))',
        [id, keys],
      );
      const list = [...unique.entries()];
      await tx.query(
        `INSERT INTO essays.prompt (college_id, position, text, prompt_key, word_limit, word_min, category, source_url, note)
         SELECT $1, t.pos, t.txt, t.k, t.wl, t.wm, t.cat, t.src, t.note
         FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[])
           AS t(pos, txt, k, wl, wm, cat, src, note)
         ON CONFLICT (college_id, prompt_key) DO UPDATE SET
           position = EXCLUDED.position, text = EXCLUDED.text, word_limit = EXCLUDED.word_limit,
           word_min = EXCLUDED.word_min, category = EXCLUDED.category, source_url = EXCLUDED.source_url,
           note = EXCLUDED.note`,
        [
          id,
          list.map((_, i) => i),
          list.map(([, p]) => p.text),
          list.map(([k]) => k),
          list.map(([, p]) => p.wordLimit ?? null),
          list.map(([, p]) => p.wordMin ?? null),
          list.map(([, p]) => categorisePrompt(p.text)),
          list.map(([, p]) => p.sourceUrl ?? null),
          list.map(([, p]) => p.note ?? null),
        ],
      );
    });
  }

  /** Forgets a college (deleted or merged by an admin) and its prompts; application platforms stay. */
  async removeCollege(name: string): Promise<boolean> {
    const n = normaliseCollegeName(name);
    if (!n) return false;
    const r = await this.db.query(
      `DELETE FROM essays.college WHERE normalized_name = $1 AND kind = 'college'`,
      [n],
    );
    return r.rowCount > 0;
  }

  /** Names of the colleges that have at least one prompt: application platforms first, then by name. */
  async listCollegesWithPrompts(): Promise<Array<{ name: string; application: boolean }>> {
    const r = await this.db.query<{ name: string; application: boolean }>(
      `SELECT c.name, c.kind = 'application' AS application FROM essays.college c
       WHERE EXISTS (SELECT 1 FROM essays.prompt p WHERE p.college_id = c.id)
       ORDER BY (c.kind = 'application') DESC, lower(c.name), c.name`,
    );
    return r.rows;
  }

  /**
   * A college (or application platform) by its stored name, case- and punctuation-insensitive. Never by
   * an alias: what a typed name means is the colleges service's one resolver's answer
   * (`internalResolveCollege`), so no name can lead here somewhere it leads nowhere else.
   */
  async findCollege(name: string, kind?: 'college' | 'application'): Promise<CollegeRow | null> {
    const n = normaliseCollegeName(name);
    if (!n) return null;
    const r = await this.db.query<CollegeRow>(
      `SELECT id, name FROM essays.college WHERE normalized_name = $1 AND ($2::text IS NULL OR kind = $2)`,
      [n, kind ?? null],
    );
    return r.rows[0] ?? null;
  }

  async listPrompts(collegeId: number): Promise<PromptRow[]> {
    const r = await this.db.query<PromptRow>(
      `SELECT ${PROMPT_COLUMNS} FROM essays.prompt WHERE college_id = $1 ORDER BY position, id`,
      [collegeId],
    );
    return r.rows;
  }

  async findPrompt(collegeId: number, text: string): Promise<PromptRow | null> {
    const r = await this.db.query<PromptRow>(
      `SELECT ${PROMPT_COLUMNS} FROM essays.prompt WHERE college_id = $1 AND prompt_key = $2`,
      [collegeId, promptKey(text)],
    );
    return r.rows[0] ?? null;
  }

  /** Any college's prompt with this text (admins add examples to a prompt, whichever college asks it). */
  async findPromptAnywhere(text: string): Promise<PromptRow | null> {
    const r = await this.db.query<PromptRow>(
      `SELECT ${PROMPT_COLUMNS} FROM essays.prompt WHERE prompt_key = $1 ORDER BY id LIMIT 1`,
      [promptKey(text)],
    );
    return r.rows[0] ?? null;
  }

  /** The prompts of the named colleges (their stored names: a student's list), with each college's name. */
  async promptsOfColleges(names: readonly string[]): Promise<CollegePromptRow[]> {
    const normalized = [...new Set(names.map(normaliseCollegeName))].filter(Boolean);
    if (!normalized.length) return [];
    const r = await this.db.query<CollegePromptRow>(
      `SELECT c.name, p.text, p.word_limit, p.category FROM essays.college c
       JOIN essays.prompt p ON p.college_id = c.id
       WHERE c.normalized_name = ANY($1::text[])
       ORDER BY lower(c.name), p.position`,
      [normalized],
    );
    return r.rows;
  }

  /**
   * The prompts of each named college (by its stored name), keyed by the name as given: a college the
   * service has no prompts for is absent.
   */
  async promptDetailsByCollege(names: readonly string[]): Promise<Map<string, PromptRow[]>> {
    const out = new Map<string, PromptRow[]>();
    const wanted = names.map((n) => [n, normaliseCollegeName(n)] as const).filter(([, n]) => n);
    if (!wanted.length) return out;
    const r = await this.db.query<PromptRow & { requested: string }>(
      `SELECT req.n AS requested, p.text, p.word_limit, p.word_min, p.category, p.source_url, p.note
       FROM unnest($1::text[]) AS req(n)
       CROSS JOIN LATERAL (
         SELECT c.id FROM essays.college c WHERE c.normalized_name = req.n LIMIT 1
       ) c
       JOIN essays.prompt p ON p.college_id = c.id
       ORDER BY req.n, p.position, p.id`,
      [[...new Set(wanted.map(([, n]) => n))]],
    );
    const byKey = new Map<string, PromptRow[]>();
    for (const { requested, ...row } of r.rows) byKey.set(requested, [...(byKey.get(requested) ?? []), row]);
    for (const [name, key] of wanted) {
      const list = byKey.get(key);
      if (list) out.set(name, list);
    }
    return out;
  }

  async listExamples(key: string): Promise<ExampleRow[]> {
    const r = await this.db.query<ExampleRow>(
      `SELECT id, title, body, origin, created_at FROM essays.example_essay WHERE prompt_key = $1
       ORDER BY (origin = 'admin') DESC, id`,
      [key],
    );
    return r.rows;
  }

  async addExample(
    key: string,
    e: { title: string | null; body: string; origin: 'ai' | 'admin'; addedBy: string | null },
    tx: Queryable = this.db,
  ): Promise<ExampleRow> {
    const r = await tx.query<ExampleRow>(
      `INSERT INTO essays.example_essay (prompt_key, title, body, origin, added_by)
       VALUES ($1, $2, $3, $4, $5) RETURNING id, title, body, origin, created_at`,
      [key, e.title === null ? null : cleanText(e.title), cleanText(e.body), e.origin, e.addedBy],
    );
    return r.rows[0]!;
  }

  /**
   * Records that examples are wanted for a prompt. Returns the request when this call created it or
   * queued it again (a failure older than `retryFailedAfterMs`): the caller then enqueues the job.
   */
  async requestExamples(
    key: string,
    prompt: { text: string; wordLimit: number | null },
    retryFailedAfterMs: number,
  ): Promise<ExampleRequestRow | null> {
    const r = await this.db.query<RequestDbRow>(
      `INSERT INTO essays.example_request (prompt_key, prompt_text, word_limit, state)
       VALUES ($1, $2, $3, 'queued')
       ON CONFLICT (prompt_key) DO UPDATE SET state = 'queued', failure_reason = NULL, attempts = 0,
         updated_at = now(), requested_at = now()
       WHERE essays.example_request.state IN ('failed', 'unavailable')
         AND essays.example_request.updated_at < now() - make_interval(secs => $4::double precision / 1000)
       RETURNING ${REQUEST_COLUMNS}`,
      [key, cleanText(prompt.text), prompt.wordLimit, retryFailedAfterMs],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  async findRequest(key: string): Promise<ExampleRequestRow | null> {
    const r = await this.db.query<RequestDbRow>(
      `SELECT ${REQUEST_COLUMNS} FROM essays.example_request WHERE prompt_key = $1`,
      [key],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /** Requests still waiting or running, oldest first (the sweep gives a lost job back). */
  async pendingRequests(limit: number): Promise<ExampleRequestRow[]> {
    return (await pendingRows<RequestDbRow>(this.db, 'essays.example_request', REQUEST_COLUMNS, limit)).map(
      toRequest,
    );
  }

  /** Ends a request still waiting or running as failed (its job was lost for good, or its tries spent). */
  async giveUpRequest(key: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE essays.example_request SET state = 'failed', failure_reason = $2, updated_at = now()
       WHERE prompt_key = $1 AND state IN ('queued', 'running')`,
      [key, reason],
    );
  }

  /**
   * Moves a request still waiting or running to `state` (a try begins with `running`, which counts it);
   * a late report never reopens a finished one. Returns the row as it is now, or null when it was not
   * pending.
   */
  async advanceRequest(
    key: string,
    state: ExampleState,
    reason: string | null = null,
  ): Promise<ExampleRequestRow | null> {
    const r = await this.db.query<RequestDbRow>(
      `UPDATE essays.example_request SET state = $2, failure_reason = $3, updated_at = now(),
         attempts = attempts + CASE WHEN $2 = 'running' THEN 1 ELSE 0 END
       WHERE prompt_key = $1 AND state IN ('queued', 'running')
       RETURNING ${REQUEST_COLUMNS}`,
      [key, state, reason],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /**
   * Stores the written examples and closes the request in one transaction. Idempotent: when the request
   * is already done (a retried job), nothing is added twice.
   */
  async completeRequest(
    key: string,
    examples: ReadonlyArray<{ title: string | null; body: string }>,
    addedBy: string,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const r = await tx.query<{ state: ExampleState }>(
        'SELECT state FROM essays.example_request WHERE prompt_key = $1 FOR UPDATE',
        [key],
      );
      if (r.rows[0]?.state === 'done') return;
      for (const e of examples) await this.addExample(key, { ...e, origin: 'ai', addedBy }, tx);
      await tx.query(
        `UPDATE essays.example_request SET state = 'done', failure_reason = NULL, updated_at = now()
         WHERE prompt_key = $1`,
        [key],
      );
    });
  }
}

const REQUEST_COLUMNS = 'prompt_key, prompt_text, word_limit, state, failure_reason, attempts, updated_at';
interface RequestDbRow {
  prompt_key: string;
  prompt_text: string;
  word_limit: number | null;
  state: ExampleState;
  failure_reason: string | null;
  attempts: number;
  updated_at: Date;
}
const toRequest = (r: RequestDbRow): ExampleRequestRow => ({
  key: r.prompt_key,
  promptText: r.prompt_text,
  wordLimit: r.word_limit,
  state: r.state,
  failureReason: r.failure_reason,
  attempts: r.attempts,
  updatedAt: r.updated_at,
});
