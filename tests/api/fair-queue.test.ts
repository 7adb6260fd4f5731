// Issue 20.3: one student cannot hold up every new college for everyone. Every kind of AI work counts
// against a per-student quota (background enrichment too), a student waiting for a new name goes ahead of
// background enrichment, and one busy student's burst delays another's first result by at most one job.
import type { College, IngestionRequest } from '@ct/contracts';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { buildCollege, createVerifiedUser, type ResponsesRequest, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiCollegesSuite, eventually } from './colleges-helpers.ts';

type Body<T> = { success: boolean; message: string; data: T; code?: string };

let busy: TestUser;
let other: TestUser;

const SHIPPED = Array.from({ length: 6 }, (_, i) => `Fairfield Shipped College ${i + 1}`);
const BUSY_NAMES = Array.from({ length: 4 }, (_, i) => `Busy Unknown Academy ${i + 1}`);
const OTHER_NAME = 'Patient Unknown Institute';

/** The name a request to the AI provider was about (the data block's `nameAsTyped`). */
function typedName(req: ResponsesRequest): string | null {
  const items = req.rawInput as Array<{ content: Array<{ text: string }> }> | string;
  if (!Array.isArray(items) || items.length !== 2) return null;
  const text = items[1]!.content[0]!.text;
  const data = JSON.parse(text.slice('<data>'.length, -'</data>'.length)) as { nameAsTyped?: string };
  return data.nameAsTyped ?? null;
}

const add = (u: TestUser, name: string) =>
  gw.api<Body<IngestionRequest>>('POST', '/api/add-college', { token: u.idToken, body: { name } });
const search = (u: TestUser, name: string) =>
  gw.api<Body<College>>('GET', '/api/search-college', { token: u.idToken, query: { name } });
const state = async (u: TestUser, name: string) =>
  (
    await gw.api<Body<IngestionRequest>>('GET', '/api/ingestion-status', {
      token: u.idToken,
      query: { name },
    })
  ).body.data?.state;

const { gw, openai } = aiCollegesSuite(
  {},
  // One job at a time: the order the worker takes them in is the order the provider is asked.
  { env: { INGESTION_CONCURRENCY: '1', INGESTION_USER_DAILY_ENRICHMENTS: '4' } },
);
beforeAll(async () => {
  [busy, other] = await Promise.all([
    createVerifiedUser({ name: 'Busy' }),
    createVerifiedUser({ name: 'Other' }),
  ]);
  // Shipped colleges whose own pages were never read: opening one queues their enrichment.
  await new CollegeRepository(gw.db).upsertColleges(
    SHIPPED.map((name, i) => buildCollege({ name, scorecardId: 990_100 + i })),
    { factsGathered: false },
  );
});
afterAll(() => {
  openai.server.release();
});

describe('fair scheduling of AI work', () => {
  it("one busy student delays another's first result by at most one job, enrichment waits behind both", async () => {
    openai.server.hold();
    // The busy student adds shipped colleges (background enrichment) and asks for new names.
    for (const name of SHIPPED.slice(0, 3)) expect((await add(busy, name)).status).toBe(200);
    for (const name of BUSY_NAMES) expect((await add(busy, name)).status).toBe(202);
    // The worker is busy with the first job; only then does the other student ask.
    await openai.server.waitForCalls(1);
    expect((await add(other, OTHER_NAME)).status).toBe(202);
    openai.server.release();

    await eventually(
      async () => ((await state(other, OTHER_NAME)) === 'queued' ? undefined : true),
      30_000,
      'the other student gets a result',
    );
    for (const name of BUSY_NAMES) {
      await eventually(
        async () => (['done', 'failed'].includes((await state(busy, name)) ?? '') ? true : undefined),
        30_000,
        name,
      );
    }
    const order = openai.responses().map(typedName);
    const others = order.indexOf(OTHER_NAME);
    expect(others).toBeGreaterThanOrEqual(0);
    // Before it: the job already running when it was asked for, at most one more of the busy student's.
    expect(others).toBeLessThanOrEqual(2);
    // Every new name a student waits for went before the background enrichment of shipped colleges.
    const lastNew = Math.max(...[...BUSY_NAMES, OTHER_NAME].map((n) => order.indexOf(n)));
    const enrichments = order
      .map((n, i) => (SHIPPED.includes(n ?? '') ? i : -1))
      .filter((i) => i >= 0 && i > 0);
    expect(enrichments.every((i) => i > lastNew)).toBe(true);
    // And the busy student's own jobs all ran: fair, not starved.
    for (const name of BUSY_NAMES) expect(order).toContain(name);
  });

  it('counts background enrichment against a daily quota per student; the college still answers', async () => {
    const before = openai.responses().length;
    // Three already counted above; the quota is four: one more is gathered, the rest only answered.
    for (const name of SHIPPED.slice(3)) {
      expect((await add(busy, name)).status).toBe(200);
      const r = await search(busy, name);
      expect(r.status).toBe(200);
      expect(r.body.data.name).toBe(name);
    }
    await eventually(async () => (openai.responses().length > before ? true : undefined), 30_000);
    // Let the queue settle, then count what was asked of the AI provider for those colleges.
    await eventually(
      async () => {
        const r = await gw.api<{ queue: { waiting: number; active: number } }>(
          'GET',
          '/api/internal/ingestion',
          {
            internal: true,
          },
        );
        return r.body.queue.waiting + r.body.queue.active === 0 ? true : undefined;
      },
      30_000,
      'the queue to drain',
    );
    const enriched = SHIPPED.slice(3).filter((n) => openai.responses().some((r) => typedName(r) === n));
    expect(enriched).toEqual([SHIPPED[3]]);
    // Another student opening the same colleges has their own quota.
    expect((await add(other, SHIPPED[4]!)).status).toBe(200);
    await eventually(
      async () => (openai.responses().some((r) => typedName(r) === SHIPPED[4]) ? true : undefined),
      30_000,
      'the other student’s enrichment',
    );
  });
});
