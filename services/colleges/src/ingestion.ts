import {
  CollegeIngestedEvent,
  IngestCollegeJob,
  INGESTION_QUEUE,
  ingestionJobId,
  normaliseCollegeName,
  type College,
  type CollegeIngestedEvent as CollegeIngestedPayload,
  type IngestCollegeJob as IngestCollegeJobData,
  type IngestionRequest,
} from '@ct/contracts';
import { createHash } from 'node:crypto';
import { AppError, type ServiceContext } from '@ct/service-kit';
import type { CollegesConfig } from './config.ts';
import { IngestionRepository, publicRequest, type StoredRequest } from './ingestion-repository.ts';
import { CollegeRepository } from './repository.ts';
import { SuggestionIndex } from './suggestions.ts';

const JOB_PREFIX = `${IngestCollegeJob.name}.`;

/** Message of a job the queue gave up on without the worker recording why (e.g. it kept crashing). */
export const INTERRUPTED_REASON =
  'Gathering this college was interrupted too many times. Please try again later.';

/**
 * Ingestion requests: recording them (one per normalised name), giving them a queue job, taking worker
 * reports, storing the result and announcing it. The database row is the source of truth; the job can
 * always be rebuilt from it.
 */
export class Ingestion {
  readonly requests: IngestionRepository;
  readonly colleges: CollegeRepository;
  /** Names and aliases in memory for suggestions (kept in step with the table). */
  readonly suggestions: SuggestionIndex;

  constructor(
    private readonly ctx: ServiceContext<unknown>,
    private readonly config: CollegesConfig,
  ) {
    this.requests = new IngestionRepository(ctx.db);
    this.colleges = new CollegeRepository(ctx.db);
    this.suggestions = new SuggestionIndex(ctx.db);
  }

  /** Gives a request its job; joins the job if it is already waiting or running. */
  async enqueue(r: StoredRequest, requestId?: string): Promise<void> {
    const data: IngestCollegeJobData = {
      key: r.key,
      name: r.name,
      ...(r.scorecardId !== null ? { scorecardId: r.scorecardId } : {}),
      ...(requestId ? { requestId } : {}),
    };
    await this.ctx.queue.add(INGESTION_QUEUE, IngestCollegeJob.name, data, {
      jobId: ingestionJobId(IngestCollegeJob, r.key),
      attempts: this.config.INGESTION_ATTEMPTS,
      backoffMs: this.config.INGESTION_BACKOFF_MS,
    });
  }

  /**
   * A student asks for a college. Already cached: 200 with a finished request. Otherwise the request is
   * recorded (or joined) and its job enqueued: 202 while it waits or runs.
   */
  async requestCollege(
    name: string,
    requestId?: string,
  ): Promise<{ status: 200 | 202; request: IngestionRequest }> {
    const key = normaliseCollegeName(name);
    if (!key) throw new AppError('VALIDATION_ERROR', 'Please enter the name of a college.');
    const hit = await this.colleges.findCollege(name);
    if (hit) {
      const existing = await this.requests.get(key);
      const request: IngestionRequest =
        existing?.state === 'done'
          ? publicRequest(existing)
          : doneView(key, name.trim(), hit.college, existing ? publicRequest(existing) : null);
      return { status: 200, request };
    }
    const { request, enqueue } = await this.requests.request(
      key,
      name.trim(),
      null,
      this.config.INGESTION_RETRY_FAILED_AFTER_MS,
    );
    if (enqueue) await this.enqueueOrLeaveToSweep(request, requestId);
    const pending = request.state === 'queued' || request.state === 'running';
    return { status: pending ? 202 : 200, request: publicRequest(request) };
  }

  /**
   * A cached college known only from the bulk import gets its college facts gathered the first time a
   * student finds it; the search answers at once with what is cached.
   */
  async gatherFactsLater(college: College, requestId?: string): Promise<void> {
    const key = normaliseCollegeName(college.name);
    const { request, enqueue } = await this.requests.request(
      key,
      college.name,
      college.scorecardId,
      this.config.INGESTION_RETRY_FAILED_AFTER_MS,
    );
    if (enqueue) await this.enqueueOrLeaveToSweep(request, requestId);
  }

  /**
   * The request row is already committed, so a queue that is down (Redis lost) does not lose it: the
   * periodic sweep (resumePending) enqueues it once the queue is back. The student gets the recorded request.
   */
  private async enqueueOrLeaveToSweep(r: StoredRequest, requestId?: string): Promise<void> {
    try {
      await this.enqueue(r, requestId);
    } catch (err) {
      this.ctx.log.warn(
        { err, key: r.key },
        'ingestion request recorded; the queue is down, the sweep will enqueue it',
      );
    }
  }

  /**
   * Stores a gathered college and marks its request done in one transaction, then announces
   * `college.ingested`. Idempotent: a repeated call stores the same row and the event is deduplicated.
   */
  async complete(key: string, college: College, factsGathered: boolean): Promise<IngestionRequest> {
    if (!normaliseCollegeName(college.name)) {
      throw new AppError(
        'VALIDATION_ERROR',
        'Invalid request: the college name must contain letters or digits',
      );
    }
    const stored = await this.ctx.db.transaction(async (tx) => {
      const saved = await this.colleges.upsertCollege(college, { mode: 'replace', factsGathered }, tx);
      const request = await this.requests.complete(key, saved.id, saved.name, tx);
      if (!request) throw new AppError('NOT_FOUND', `No ingestion request "${key}"`);
      return { request, doc: saved.document };
    });
    const payload: CollegeIngestedPayload = {
      name: stored.doc.name,
      aliases: stored.doc.aliases,
      deadlines: stored.doc.info.deadlines,
      essayPrompts: stored.doc.info.essayPrompts,
      ...(stored.doc.info.essayPromptMeta ? { essayPromptMeta: stored.doc.info.essayPromptMeta } : {}),
      ingestedAt: new Date().toISOString(),
    };
    const { ingestedAt: _at, ...content } = payload;
    const eventId = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 24);
    await this.ctx.bus.publish(
      CollegeIngestedEvent,
      payload,
      `${normaliseCollegeName(stored.doc.name)}.${eventId}`,
    );
    return publicRequest(stored.request);
  }

  /** Enqueues again every request still waiting or running (after a restart or a lost Redis). */
  async resumePending(): Promise<number> {
    let n = 0;
    for (const r of await this.requests.pending(1000)) {
      await this.enqueue(r);
      n++;
    }
    return n;
  }

  /** Key of an ingest-college job id, or null for other jobs on the queue. */
  static keyOfJob(jobId: string): string | null {
    return jobId.startsWith(JOB_PREFIX) ? jobId.slice(JOB_PREFIX.length) : null;
  }
}

/** What a cached college looks like as a request: done, pointing at the stored college. */
export function doneView(
  key: string,
  name: string,
  college: College,
  existing: IngestionRequest | null,
): IngestionRequest {
  const now = new Date().toISOString();
  return {
    key,
    name,
    state: 'done',
    stage: 'done',
    attempts: existing?.attempts ?? 0,
    failureReason: null,
    lastError: null,
    collegeName: college.name,
    requestedAt: existing?.requestedAt ?? college.createdAt ?? now,
    updatedAt: college.updatedAt ?? now,
  };
}
