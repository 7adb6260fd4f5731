import {
  CollegeIngestedEvent,
  normaliseCollegeName,
  type College,
  type CollegeIngestedEvent as CollegeIngestedPayload,
  type Enrichment,
  type IngestionRequest,
} from '@ct/contracts';
import { createHash } from 'node:crypto';
import { Outbox } from '@ct/jobs';
import { decideSharing, mergeEnrichment, mergeGovernment, type HeldFact } from '@ct/providers';
import { AppError, type ServiceContext } from '@ct/service-kit';
import type { Queryable } from '@ct/store';
import { AiBudget } from './repositories/ai-budget.ts';
import { AiShareRepository } from './repositories/ai-share.ts';
import type { CollegesConfig } from './config.ts';
import { presentDoneRequest, presentRequest } from './presenters.ts';
import { IngestionRepository, type StoredRequest } from './repositories/ingestion.ts';
import { collegesJobs, PRIORITY } from './jobs/requests.ts';
import { COLLEGES_MSG, TRUST_MSG } from './messages.ts';
import { CollegeRepository, type CollegeHit, type StoredCollege } from './repositories/colleges.ts';
import { HeldFactRepository } from './repositories/held-facts.ts';
import { ReviewRepository } from './repositories/reviews.ts';
import { SuggestionIndex } from './suggestions.ts';

/** The college.ingested event of a stored college, and its id (the same content is the same event). */
export function ingestedEvent(doc: College): { payload: CollegeIngestedPayload; eventId: string } {
  const payload: CollegeIngestedPayload = {
    name: doc.name,
    scorecardId: doc.scorecardId,
    aliases: doc.aliases,
    deadlines: doc.info.deadlines,
    essayPrompts: doc.info.essayPrompts,
    ...(doc.info.essayPromptMeta ? { essayPromptMeta: doc.info.essayPromptMeta } : {}),
    ingestedAt: new Date().toISOString(),
  };
  const { ingestedAt: _at, ...content } = payload;
  const hash = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 24);
  return { payload, eventId: `${normaliseCollegeName(doc.name)}.${hash}` };
}

/** No hour within a day has room for a student's background work: nothing is queued. */
class NoRoom extends Error {}

/**
 * Ingestion requests: recording them (one per normalised name, with who asked), giving them a queue
 * job, booking its AI work against the student's share of the hour, placing what the job gathered (shared, enriching a stored college, or private for
 * review) and announcing it through the outbox. The database row is the source of truth; the job can
 * always be rebuilt from it.
 */
export class Ingestion {
  readonly requests: IngestionRepository;
  readonly colleges: CollegeRepository;
  /** Colleges private to the students who asked for them, until an admin reviews them. */
  readonly reviews: ReviewRepository;
  /** Facts about shared colleges no official page vouched for, private to who asked until reviewed. */
  readonly held: HeldFactRepository;
  /** Names and aliases in memory for suggestions (kept in step with the table). */
  readonly suggestions: SuggestionIndex;
  readonly outbox: Outbox;
  /** The hourly circuit breaker on AI calls, shared by every worker. */
  readonly budget: AiBudget;
  /** Each student's share of the hourly allowance: bookings of the AI work their requests start. */
  readonly share: AiShareRepository;
  /** Whether an AI provider is configured (enrichment is queued only then). */
  readonly aiConfigured: boolean;
  /** The service's tracked background work (college and major jobs). */
  readonly work: ReturnType<typeof collegesJobs>;

  private readonly config: CollegesConfig;

  constructor(private readonly ctx: ServiceContext<CollegesConfig>) {
    this.config = ctx.config;
    this.requests = new IngestionRepository(ctx.db);
    this.colleges = new CollegeRepository(ctx.db);
    this.reviews = new ReviewRepository(ctx.db);
    this.held = new HeldFactRepository(ctx.db);
    this.suggestions = new SuggestionIndex(ctx.db);
    this.outbox = new Outbox(ctx.db, ctx.bus, ctx.log, 'colleges');
    this.work = collegesJobs(ctx);
    this.budget = new AiBudget(ctx.db, ctx.config.AI_CALLS_PER_HOUR);
    this.share = new AiShareRepository({
      perHour: ctx.config.AI_CALLS_PER_HOUR,
      studentPercent: ctx.config.AI_STUDENT_SHARE_PERCENT,
      reservePercent: ctx.config.AI_FIRST_REQUEST_RESERVE_PERCENT,
    });
    this.aiConfigured = Boolean(ctx.config.OPENAI_API_KEY);
  }

  /** Gives a request its job; joins the job if it is already waiting or running. */
  enqueue(r: StoredRequest, requestId?: string): Promise<void> {
    return this.work.jobs.enqueue(this.work.college, r, requestId);
  }

  /**
   * A student asks for a college. Found (shared, or kept privately for them): 200 with a finished
   * request, and a Scorecard college still without its facts gets them gathered in the background.
   * Otherwise the request is recorded (or joined) with who asked, and its job enqueued: 202 while it
   * waits or runs. A student over the daily quota of new names, or a new name while the hourly limit on
   * AI calls is spent, gets a 429 and changes nothing.
   */
  async requestCollege(
    name: string,
    uid: string | null,
    requestId?: string,
  ): Promise<{ status: 200 | 202; request: IngestionRequest }> {
    const key = normaliseCollegeName(name);
    if (!key) throw new AppError('VALIDATION_ERROR', COLLEGES_MSG.nameMissing);
    const hit = await this.colleges.findVisible(name, uid);
    if (hit) {
      // The college is found either way; its enrichment not being queued must not change that.
      await this.enrichLater(hit, uid, requestId).catch((err: unknown) => {
        this.ctx.log.warn({ err, key }, 'could not ask for the college facts of a cached college');
      });
      const existing = await this.requests.get(key);
      const request: IngestionRequest =
        existing?.state === 'done'
          ? presentRequest(existing)
          : presentDoneRequest(key, name.trim(), hit.college, existing ? presentRequest(existing) : null);
      return { status: 200, request };
    }
    // Another student asked for this name and its result is kept for review: this student sees it too.
    const kept = await this.reviews.byKey(key);
    if (kept && uid) {
      await this.ctx.db.transaction(async (tx) => {
        await this.reviews.addViewers(kept.id, [uid], tx);
        await this.requests.recordRequester(key, uid, 'joined', tx);
      });
      const existing = await this.requests.get(key);
      return {
        status: 200,
        request: presentDoneRequest(key, name.trim(), kept.document, existing && presentRequest(existing)),
      };
    }
    const current = await this.requests.get(key);
    const pending = current?.state === 'queued' || current?.state === 'running';
    if (!pending && this.aiConfigured && (await this.budget.spent())) {
      throw new AppError('RATE_LIMITED', TRUST_MSG.aiLimit);
    }
    const { request, enqueue, priority } = await this.ctx.db.transaction(async (tx) => {
      if (uid) await this.checkQuota(key, uid, tx);
      const r = await this.requests.request(
        key,
        name.trim(),
        null,
        this.config.INGESTION_RETRY_FAILED_AFTER_MS,
        {
          q: tx,
        },
      );
      if (uid) await this.requests.recordRequester(key, uid, r.enqueue ? 'new-name' : 'joined', tx);
      const booked = r.enqueue ? await this.book(key, uid, tx) : r.request;
      if (!booked) throw new AppError('RATE_LIMITED', TRUST_MSG.aiLimit);
      return { ...r, request: booked, priority: await this.priority(PRIORITY.explicit, key, uid, tx) };
    });
    if (enqueue) await this.work.jobs.request(this.work.college, request, requestId, priority);
    const waiting = request.state === 'queued' || request.state === 'running';
    return { status: waiting ? 202 : 200, request: presentRequest(request) };
  }

  /**
   * The daily quota: a student may have this many new names gathered in 24 hours. Asking again for a
   * name they asked for before is free. Serialised per student, so parallel requests cannot slip past.
   */
  private async checkQuota(key: string, uid: string, tx: Queryable): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`colleges:quota:${uid}`]);
    if (await this.requests.hasRequester(key, uid, tx)) return;
    const quota = this.config.INGESTION_USER_DAILY_QUOTA;
    if ((await this.requests.newNamesToday(uid, tx)) >= quota) {
      throw new AppError('RATE_LIMITED', TRUST_MSG.dailyQuota(quota));
    }
  }

  /**
   * Opening or adding a Scorecard college whose facts from its own pages were never gathered queues that
   * enrichment, when an AI provider is configured and the hourly limit allows. The page answers at once
   * with the official figures; the card shows the enrichment's progress.
   */
  async enrichLater(hit: CollegeHit, uid: string | null, requestId?: string): Promise<void> {
    const { college } = hit;
    if (!hit.shared || hit.factsGathered || college.scorecardId === null || !this.aiConfigured) return;
    if (await this.budget.spent()) return;
    const key = normaliseCollegeName(college.name);
    const asked = await this.ctx.db
      .transaction(async (tx) => {
        // Enrichment is AI work too: past a student's daily quota of it, nothing more is queued for them.
        if (uid && !(await this.withinEnrichmentQuota(key, uid, tx))) return null;
        const r = await this.requests.request(
          key,
          college.name,
          college.scorecardId,
          this.config.INGESTION_RETRY_FAILED_AFTER_MS,
          { requeueDone: true, q: tx },
        );
        if (uid) await this.requests.recordRequester(key, uid, 'enrichment', tx);
        const booked = r.enqueue ? await this.book(key, uid, tx) : r.request;
        // No hour within a day has room for this student: the card says the lookups are paused.
        if (!booked) throw new NoRoom();
        return { ...r, request: booked, priority: await this.priority(PRIORITY.background, key, uid, tx) };
      })
      .catch((err: unknown) => {
        if (err instanceof NoRoom) return null;
        throw err;
      });
    if (asked?.enqueue) {
      await this.work.jobs.request(this.work.college, asked.request, requestId, asked.priority);
    }
  }

  /**
   * Books a request's AI work against the student's share of the hourly allowance (issue 35.4). Work that
   * does not fit this hour waits for the first hour it fits (the row says until when; its job is delayed
   * until then). Null when no hour within a day has room. Without an AI provider, or for work no student
   * asked for, nothing is booked.
   */
  private async book(key: string, uid: string | null, tx: Queryable): Promise<StoredRequest | null> {
    const row = await this.requests.lock(key, tx);
    if (!row) return null;
    if (!uid || !this.aiConfigured) return row;
    const booking = await this.share.book(uid, key, tx);
    if (!booking) return null;
    return booking.waits ? await this.requests.waitUntil(key, booking.hour, tx) : row;
  }

  /** Whether a student may have one more college enriched today (asking again for the same one is free). */
  private async withinEnrichmentQuota(key: string, uid: string, tx: Queryable): Promise<boolean> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`colleges:quota:${uid}`]);
    if (await this.requests.hasRequester(key, uid, tx)) return true;
    return (await this.requests.enrichmentsToday(uid, tx)) < this.config.INGESTION_USER_DAILY_ENRICHMENTS;
  }

  /**
   * A job's queue priority: its class (a student waiting, or background), one place further back for
   * each of the student's own requests still waiting, so no student's burst delays another's first
   * result by more than one job.
   */
  private async priority(base: number, key: string, uid: string | null, tx: Queryable): Promise<number> {
    return uid ? base + (await this.requests.pendingFor(uid, key, tx)) : base;
  }

  /** Where a found college's facts from its own pages stand: the status line of its card. */
  async enrichmentOf(hit: CollegeHit): Promise<Enrichment> {
    const done: Enrichment = { state: 'done', message: null };
    if (!hit.shared || hit.factsGathered || hit.college.scorecardId === null) return done;
    const r = await this.requests.get(normaliseCollegeName(hit.college.name));
    if (r?.state === 'queued' && r.waitingUntil)
      return { state: 'paused', message: TRUST_MSG.waitingForHour(r.waitingUntil) };
    if (r?.state === 'queued' || r?.state === 'running')
      return { state: 'gathering', message: TRUST_MSG.gathering };
    if (!this.aiConfigured) return { state: 'needs-key', message: TRUST_MSG.needsAiKey };
    if (r?.state === 'failed') return { state: 'failed', message: r.failureReason };
    if (await this.budget.spent()) return { state: 'paused', message: TRUST_MSG.paused };
    // Never gathered, nobody asked yet: a read says so; adding the college asks.
    if (r?.state !== 'done') return { state: 'not-asked', message: TRUST_MSG.notAsked };
    return done;
  }

  /**
   * Places a gathered college and marks its request done in one transaction, with its `college.ingested`
   * event in the outbox of that same transaction; the relay publishes it after the commit. Idempotent: a
   * repeated call stores the same document and the event id is the same.
   */
  async complete(
    key: string,
    college: College,
    factsGathered: boolean,
    officialWebsite: string | null = null,
    held: readonly HeldFact[] = [],
  ): Promise<IngestionRequest> {
    if (!normaliseCollegeName(college.name)) {
      throw new AppError('VALIDATION_ERROR', COLLEGES_MSG.nameWithoutLetters);
    }
    const request = await this.ctx.db.transaction(async (tx) => {
      const req = await this.requests.lock(key, tx);
      if (!req) throw new AppError('NOT_FOUND', COLLEGES_MSG.noRequest(key));
      return this.place(req, college, factsGathered, officialWebsite, held, tx);
    });
    void this.outbox.kick();
    return presentRequest(request);
  }

  /**
   * Where a gathered college goes:
   * 1. matched to a College Scorecard institution (by the id the government data carries, or the one the
   *    request knew): shared; what the college's pages gave enriches the stored college, whose official
   *    figures stay;
   *    the facts of the answer its official pages did not vouch for (`held`, decided by `screenAnswer` where
   *    the answer arrived) stay private to the students who asked, for an admin's review;
   * 2. anything else: private whole to the students who asked, in the admin's review list, announced to
   *    no one. A name no government record confirms is never shared without an admin (issue 20): an
   *    official-looking website proves nothing the model could not make up.
   */
  private async place(
    req: StoredRequest,
    doc: College,
    factsGathered: boolean,
    website: string | null,
    held: readonly HeldFact[],
    tx: Queryable,
  ): Promise<StoredRequest> {
    const sid = doc.scorecardId ?? req.scorecardId;
    if (sid !== null) {
      const stored =
        (await this.colleges.lockByScorecardId(sid, tx)) ??
        (doc.scorecardId !== null ? await this.colleges.lockUnmatchedByName(doc.name, tx) : null);
      if (stored) {
        // A stored college without an id gets the government data first: then it is that institution.
        const base =
          stored.document.scorecardId === null && doc.sources.demographics
            ? mergeGovernment(stored.document, doc)
            : stored.document;
        const merged: College = { ...mergeEnrichment(base, doc), name: stored.name };
        const saved = await this.colleges.upsertCollege(merged, { mode: 'replace', factsGathered }, tx);
        await this.holdFacts(req, saved, held, tx);
        return this.finishShared(req, saved, tx);
      }
      if (doc.scorecardId !== null) {
        const saved = await this.colleges.upsertCollege(doc, { mode: 'replace', factsGathered }, tx);
        await this.holdFacts(req, saved, held, tx);
        return this.finishShared(req, saved, tx);
      }
    }
    const decision = decideSharing(req.name, doc.name, website);
    const viewers = await this.requests.requesters(req.key, tx);
    const kept = await this.reviews.save(
      {
        key: req.key,
        requestedName: req.name,
        document: doc,
        website,
        reason: decision.shared ? TRUST_MSG.noGovernmentRecord : decision.reason,
        viewers,
      },
      tx,
    );
    return (await this.requests.complete(req.key, null, kept.name, tx)) ?? req;
  }

  /** Keeps an answer's unvouched facts about a shared college for the students of this request only. */
  private async holdFacts(
    req: StoredRequest,
    saved: StoredCollege,
    held: readonly HeldFact[],
    tx: Queryable,
  ): Promise<void> {
    if (!held.length) return;
    const viewers = await this.requests.requesters(req.key, tx, { sinceRequested: true });
    await this.held.hold(saved.id, req.key, held, viewers, tx);
  }

  /** A shared college stored: the request points at it, and its event waits in the outbox. */
  private async finishShared(
    req: StoredRequest,
    saved: StoredCollege,
    tx: Queryable,
  ): Promise<StoredRequest> {
    const done = await this.requests.complete(req.key, saved.id, saved.name, tx);
    const { payload, eventId } = ingestedEvent(saved.document);
    await this.outbox.add(tx, CollegeIngestedEvent, payload, eventId);
    return done ?? req;
  }
}
