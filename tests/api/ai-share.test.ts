// Issue 35.4: a few accounts cannot spend the hour's AI allowance for everyone. Each student may book at
// most a share of an hour (here 10 % of 20 calls: 2), part of every hour (10 %: 2 calls) is kept for
// students' first request of the day, and work that no longer fits its hour waits for the first hour with
// room, shown as waiting, instead of spilling into an hour that is already full.
import type { College, Enrichment, IngestionRequest } from '@ct/contracts';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { buildCollege, createVerifiedUser, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiCollegesSuite, eventually } from './colleges-helpers.ts';

type Body<T> = { success: boolean; message: string; data: T; code?: string; enrichment?: Enrichment };

let busy: TestUser;
let newcomer: TestUser;
let late: TestUser;

const SHIPPED = 'Share Shipped College';

const add = (u: TestUser, name: string) =>
  gw.api<Body<IngestionRequest>>('POST', '/api/add-college', { token: u.idToken, body: { name } });
const search = (u: TestUser, name: string) =>
  gw.api<Body<College>>('GET', '/api/search-college', { token: u.idToken, query: { name } });
const status = async (u: TestUser, name: string) =>
  (
    await gw.api<Body<IngestionRequest>>('GET', '/api/ingestion-status', {
      token: u.idToken,
      query: { name },
    })
  ).body.data;

/** The start of the next clock hour, as the database sees it. */
async function nextHour(): Promise<string> {
  const r = await gw.db.query<{ h: Date }>(`SELECT date_trunc('hour', now()) + interval '1 hour' AS h`);
  return new Date(r.rows[0]!.h).toISOString();
}

/** Other students' bookings of this hour (`reserve`: from the part kept for first requests). */
async function othersBook(n: number, reserve = false): Promise<void> {
  await gw.db.query(
    `INSERT INTO colleges.ai_booking (uid, hour, reserve, work)
     SELECT 'other-' || (g / 2), date_trunc('hour', now()), $2, 'elsewhere-' || g FROM generate_series(1, $1) g`,
    [n, reserve],
  );
}

const { gw, openai } = aiCollegesSuite({ AI_CALLS_PER_HOUR: '20' });
beforeAll(async () => {
  [busy, newcomer, late] = await Promise.all([
    createVerifiedUser({ name: 'Busy' }),
    createVerifiedUser({ name: 'Newcomer' }),
    createVerifiedUser({ name: 'Late' }),
  ]);
  await new CollegeRepository(gw.db).upsertColleges([buildCollege({ name: SHIPPED, scorecardId: 990_300 })], {
    factsGathered: false,
  });
});
afterAll(() => {
  delete process.env.AI_CALLS_PER_HOUR;
});

describe("each student's share of the hourly AI allowance", () => {
  it('lets one student book at most their share of an hour; the rest waits, shown as waiting', async () => {
    const first = await add(busy, 'Share Unknown Academy 1');
    const second = await add(busy, 'Share Unknown Academy 2');
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.body.data.waitingUntil ?? null).toBeNull();
    expect(second.body.data.waitingUntil ?? null).toBeNull();

    // Their share (2 of 20) is used: the third waits for the next hour, and says so.
    const third = await add(busy, 'Share Unknown Academy 3');
    expect(third.status).toBe(202);
    const hour = await nextHour();
    expect(third.body.data.state).toBe('queued');
    expect(third.body.data.waitingUntil).toBe(hour);
    expect(third.body.message).toBe(
      `"Share Unknown Academy 3" is waiting: this hour's AI lookups for you are used up, so we will gather it from ${hour.slice(11, 16)} UTC.`,
    );
    expect((await status(busy, 'Share Unknown Academy 3')).waitingUntil).toBe(hour);

    // A college found at once still answers; its own pages wait for that hour too, and the card says so.
    expect((await add(busy, SHIPPED)).status).toBe(200);
    const opened = await search(busy, SHIPPED);
    expect(opened.status).toBe(200);
    expect(opened.body.data.name).toBe(SHIPPED);
    expect(opened.body.enrichment?.state).toBe('paused');
    expect(opened.body.enrichment?.message).toContain(`from ${hour.slice(11, 16)} UTC`);

    // The first two are gathered now; the waiting ones are not asked of the AI provider this hour.
    for (const n of [1, 2]) {
      await eventually(
        async () => ((await status(busy, `Share Unknown Academy ${n}`)).state === 'done' ? true : undefined),
        30_000,
        `Share Unknown Academy ${n}`,
      );
    }
    const job = await gw.api<{ queue: { delayed: number } }>('GET', '/api/internal/ingestion', {
      internal: true,
    });
    expect(job.body.queue.delayed).toBe(2);
    expect((await status(busy, 'Share Unknown Academy 3')).state).toBe('queued');
    const asked = JSON.stringify(openai.responses().map((r) => r.rawInput));
    expect(asked).not.toContain('Share Unknown Academy 3');
    expect(asked).not.toContain(SHIPPED);
  });

  it("keeps a reserve for a student's first request of the day when the hour is otherwise full", async () => {
    // Other students have booked the whole general part of the hour (20 calls less the reserve of 2),
    // less what the busy student holds already.
    const held = await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM colleges.ai_booking WHERE hour = date_trunc('hour', now())`,
    );
    await othersBook(18 - held.rows[0]!.n);

    // A newcomer's first request of the day runs now, from the reserve; their second waits.
    const firstOfDay = await add(newcomer, 'Reserve Unknown College 1');
    expect(firstOfDay.status).toBe(202);
    expect(firstOfDay.body.data.waitingUntil ?? null).toBeNull();
    const again = await add(newcomer, 'Reserve Unknown College 2');
    expect(again.status).toBe(202);
    expect(again.body.data.waitingUntil).toBe(await nextHour());
    await eventually(
      async () => ((await status(newcomer, 'Reserve Unknown College 1')).state === 'done' ? true : undefined),
      30_000,
      "the newcomer's first request",
    );

    // Once the reserve is spent as well, even a first request waits for the next hour.
    await othersBook(1, true);
    const full = await add(late, 'Reserve Unknown College 3');
    expect(full.status).toBe(202);
    expect(full.body.data.waitingUntil).toBe(await nextHour());
    const hour = await gw.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM colleges.ai_booking WHERE hour = date_trunc('hour', now())`,
    );
    expect(hour.rows[0]!.total).toBe(20);
  });
});
