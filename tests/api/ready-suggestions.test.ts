import { createVerifiedUser, startTestGateway, type TestGateway, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './colleges-helpers.ts';

// Issue 49: on a fresh clone, right after /api/readyz turned 200, "Wright" answered three names without
// Wright State University. The embedded run as `npm start` runs it: an empty store, the shipped college data
// loading in the background.
let gw: TestGateway;
let student: TestUser;
beforeAll(async () => {
  student = await createVerifiedUser();
  gw = await startTestGateway({ store: 'pglite', queue: 'memory', env: { LOAD_SNAPSHOT: 'true' } });
}, 60_000);
afterAll(() => gw?.close());

const suggest = async (query: string) => {
  const r = await gw.api<{ suggestions: string[] }>('GET', '/api/get-college-suggestions', {
    token: student.idToken,
    query: { query },
  });
  expect(r.status).toBe(200);
  return r.body.suggestions;
};

describe('readiness on a first start', () => {
  it('says it is ready only when suggestions answer as they will once the data has loaded', async () => {
    const reasons = new Set<string>();
    const deadline = Date.now() + 150_000;
    let atReady: Record<string, string[]> | null = null;
    while (!atReady) {
      const r = await gw.api<{ message: string }>('GET', '/api/readyz');
      if (r.status === 200) {
        // The moment it is ready, before anything else can finish loading.
        atReady = { Wright: await suggest('Wright'), Notre: await suggest('Notre') };
        break;
      }
      expect(r.status).toBe(503);
      reasons.add(r.body.message.replace(/\d[\d,]*/g, 'N'));
      if (Date.now() > deadline) throw new Error('readyz did not turn 200 within 150 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // It was not ready while loading, and said why.
    expect(reasons).toContain('Not ready: the college data is loading (N of N colleges)');

    // The load is known complete once it is recorded; what is asked after that sees every college.
    await eventually(
      async () => {
        const r = await gw.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM colleges.snapshot_load WHERE kind = 'snapshot'",
        );
        return r.rows[0]!.n > 0 ? true : undefined;
      },
      60_000,
      'the snapshot load to be recorded',
    );
    const later = { Wright: await suggest('Wright'), Notre: await suggest('Notre') };
    expect(atReady).toEqual(later);
    expect(later.Wright.slice(0, 3)).toContain('Wright State University-Main Campus');
  }, 180_000);
});
