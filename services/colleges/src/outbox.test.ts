import { CollegeIngestedEvent, EVENT_SUBSCRIBERS, eventQueueName, type College } from '@ct/contracts';
import { BullQueue, EventBus, MemoryQueue, type QueueBackend } from '@ct/queue';
import { migrateModule, type ServiceContext, type ServiceModule } from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import { buildCollege, clearRedisPrefix, TEST_REDIS_URL, uniquePrefix } from '@ct/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import collegesService from './app.ts';
import { CollegesConfig } from './config.ts';
import { parseConfig } from '@ct/service-kit';
import { makeDeps, type CollegesDeps } from './deps.ts';
import { placeCollege } from './use-cases/place-college.ts';

// The outbox on the embedded default store (PGlite), with the product's in-process queue: a process
// that dies between committing a college and publishing its event must lose nothing.
let db: Db;
const quiet = () => {};
/** A logger that says nothing (the outbox warns when it cannot publish; this test expects that). */
const log = { fatal: quiet, error: quiet, warn: quiet, info: quiet, debug: quiet, trace: quiet };

beforeAll(async () => {
  db = await openDb({ dataDir: 'memory://' });
  await migrateModule(db, collegesService as unknown as ServiceModule);
});
afterAll(() => db?.close());

/** One "process" of the colleges service: its database, its queue and event bus. */
function processWith(queue: QueueBackend): CollegesDeps {
  const bus = new EventBus(queue, EVENT_SUBSCRIBERS);
  // The service's deps use the context's database, queue, event bus and log only.
  const config = parseConfig(CollegesConfig, {});
  const ctx = { db, queue, bus, log, config } as unknown as ServiceContext<CollegesConfig>;
  return makeDeps(ctx);
}

async function eventsIn(queue: MemoryQueue, service: 'essays' | 'user-data') {
  return queue.list(eventQueueName(service), ['waiting', 'active', 'completed', 'failed', 'delayed'], 100);
}

describe('college.ingested through the transactional outbox', () => {
  it('a crash between commit and publish loses nothing: the next start publishes the event once', async () => {
    const college: College = buildCollege({ name: 'Outbox Crash University', scorecardId: 900901 });
    const first = new MemoryQueue();
    const dying = processWith(first);
    const { request } = await dying.requests.request('outbox crash university', college.name, null, 0);
    expect(request.state).toBe('queued');

    // The process is going down: its queue is closed when the job places the college. The college and
    // its event commit together; the publish after the commit fails.
    await first.close();
    const done = await placeCollege(dying, { key: 'outbox crash university', college, factsGathered: true });
    expect(done).toMatchObject({ state: 'done', collegeName: 'Outbox Crash University' });
    await dying.outbox.kick();
    expect(await dying.colleges.findCollegeByName('Outbox Crash University')).not.toBeNull();
    expect(await dying.outbox.pending()).toBe(1);
    const row = await db.query<{ attempts: number; last_error: string | null }>(
      'SELECT attempts, last_error FROM colleges.outbox WHERE sent_at IS NULL',
    );
    expect(row.rows[0]!.attempts).toBeGreaterThan(0);
    expect(row.rows[0]!.last_error).toMatch(/closed/);

    // The next process: its relay at start publishes what was left, to every subscriber.
    const second = new MemoryQueue();
    const next = processWith(second);
    expect(await next.outbox.kick()).toBe(1);
    expect(await next.outbox.pending()).toBe(0);
    for (const service of ['essays', 'user-data'] as const) {
      const events = await eventsIn(second, service);
      expect(events.map((e) => e.name)).toEqual([CollegeIngestedEvent.name]);
      expect(events[0]!.data).toMatchObject({
        name: 'Outbox Crash University',
        deadlines: college.info.deadlines,
      });
    }

    // At least once, never twice for the subscriber: relaying again, or republishing the same row (a
    // relay that died before marking it sent), adds no second event.
    expect(await next.outbox.kick()).toBe(0);
    await db.query('UPDATE colleges.outbox SET sent_at = NULL');
    expect(await next.outbox.kick()).toBe(1);
    expect(await eventsIn(second, 'essays')).toHaveLength(1);
    await second.close();
  });

  it('the event is in the same transaction as the college: a failed store leaves no event behind', async () => {
    const queue = new MemoryQueue();
    const p = processWith(queue);
    await p.requests.request('outbox rollback college', 'Outbox Rollback College', null, 0);
    const before = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM colleges.outbox');
    // A college placed for a request nobody made is refused: nothing of it may remain.
    await expect(
      placeCollege(p, {
        key: 'nobody asked for this',
        college: buildCollege({ name: 'Outbox Rollback College' }),
        factsGathered: true,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const after = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM colleges.outbox');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    expect(await p.colleges.findCollegeByName('Outbox Rollback College')).toBeNull();
    await queue.close();
  });

  it('an event published and then lost with Redis stays in the outbox, is delivered again and applied once', async () => {
    const prefix = uniquePrefix('outbox-lost');
    const queue = new BullQueue({ url: TEST_REDIS_URL, prefix });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const p = processWith(queue);
      const college = buildCollege({ name: 'Outbox Lost Event College', scorecardId: 900902 });
      await p.requests.request('outbox lost event college', college.name, null, 0);
      await placeCollege(p, { key: 'outbox lost event college', college, factsGathered: true });
      await p.outbox.kick();
      // Published: sent, but applied by no subscriber yet, so it stays.
      expect(await p.outbox.pending()).toBe(0);
      expect(await p.outbox.unapplied()).toBeGreaterThanOrEqual(1);
      const eventId = (
        await db.query<{ event_id: string }>(
          `SELECT event_id FROM colleges.outbox WHERE payload->>'name' = 'Outbox Lost Event College'`,
        )
      ).rows[0]!.event_id;
      const appliedAt = async () =>
        (
          await db.query<{ applied_at: Date | null }>(
            'SELECT applied_at FROM colleges.outbox WHERE event_id = $1',
            [eventId],
          )
        ).rows[0]!.applied_at;
      expect(await appliedAt()).toBeNull();

      // Redis is lost before any subscriber took the event.
      const keys = await redis.keys(`${prefix}:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);

      // The relay sees the deliveries gone and publishes the event again; each subscriber applies it once.
      await p.outbox.kick();
      const applied: Record<string, string[]> = { essays: [], 'user-data': [] };
      const consumers = (['essays', 'user-data'] as const).map((service) =>
        queue.process(eventQueueName(service), async (job) => {
          applied[service]!.push((job.data as { name: string }).name);
        }),
      );
      for (let i = 0; i < 400 && (!applied.essays!.length || !applied['user-data']!.length); i++)
        await new Promise((r) => setTimeout(r, 25));
      // Once applied everywhere, the relay marks it so; relaying again delivers nothing more.
      await p.outbox.kick();
      expect(await appliedAt()).not.toBeNull();
      await p.outbox.kick();
      await new Promise((r) => setTimeout(r, 300));
      for (const service of ['essays', 'user-data'] as const) {
        expect(applied[service]!.filter((n) => n === 'Outbox Lost Event College')).toHaveLength(1);
      }
      await Promise.all(consumers.map((c) => c.close()));
    } finally {
      await queue.close();
      redis.disconnect();
      await clearRedisPrefix(prefix);
    }
  });
});
