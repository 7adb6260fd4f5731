// Issue 37.2: a GET changes nothing. Generated from the route table (ROUTES): every GET route, called as
// its rightful caller with inputs that point at real data, leaves every row of every table of every
// service as it was (row counts, `updated_at` and every other column). Enrichment, UNITIDs and the like
// are asked for by the writes that need them, or by events, never by a read.
import { randomUUID } from 'node:crypto';
import { normaliseCollegeName, type RouteDef } from '@ct/contracts';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import {
  buildCollege,
  createVerifiedUser,
  startTestGateway,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES, label, send, validRequest, urlOf } from './lib/routes.ts';
import { differences, settledSnapshot } from './lib/snapshot.ts';
import { grantRole } from './lib/users.ts';

let gw: TestGateway;
let alice: TestUser;
let carol: TestUser;

const tag = randomUUID().slice(0, 8);
/** A Scorecard college whose own pages were never read: the kind a read used to queue work for. */
const LISTED = `Readonly State University ${tag}`;
/** Listed by name only, without its UNITID: the kind a read used to write the UNITID into. */
const OLD_ENTRY = `Readonly Old College ${tag}`;

const GET_ROUTES = ALL_ROUTES.filter((r) => r.method === 'GET');

/**
 * The one table a read writes, on purpose: an admin reading a student's notes is recorded in the audit
 * trail (issue 35.3), so the trail itself is a record of reads. Nothing else may change.
 */
const AUDIT_TRAIL = '"user_data"."note_read"';

/**
 * The only reads that write (issue 43): on a miss they fill a cache every student shares, as HTTP lets a
 * safe method do. They may touch that cache's own tables (the profile row, who asked for it within the
 * daily quota, the AI hour it was booked in) and nothing a student owns or another student sees.
 */
const CACHE_FILLING: Record<string, readonly string[]> = {
  'GET /get-major-profile': [
    '"colleges"."major_profile"',
    '"colleges"."major_requester"',
    '"colleges"."ai_booking"',
  ],
};

function hintsFor(user: TestUser): Record<string, unknown> {
  return {
    userId: user.uid,
    uid: user.uid,
    collegeName: LISTED,
    name: LISTED,
    names: `${LISTED}\n${OLD_ENTRY}`,
    query: LISTED.slice(0, 8),
    major: 'Computer Science',
    key: LISTED.toLowerCase(),
    collegeId: 2_000_000_001,
    draftId: randomUUID(),
    recommenderId: randomUUID(),
  };
}

beforeAll(async () => {
  // An AI key is configured (nothing answers it: the worker is off): a read that queued work would show.
  process.env.OPENAI_API_KEY = 'sk-test-reads-only-read';
  process.env.LOAD_SNAPSHOT = 'false';
  gw = await startTestGateway({ env: { RUN_WORKER: 'false' } });
  [alice, carol] = await Promise.all([
    createVerifiedUser({ name: 'Alice' }),
    createVerifiedUser({ name: 'Carol' }),
  ]);
  await grantRole(gw.db, carol.uid, 'admin');
  await new CollegeRepository(gw.db).upsertColleges(
    [
      buildCollege({ name: LISTED, scorecardId: 990_700 }),
      buildCollege({ name: OLD_ENTRY, scorecardId: 990_701 }),
    ],
    { factsGathered: false },
  );
  // Alice's data: a listed college, an entry from before UNITIDs were kept, a note.
  const added = await send(
    gw.app,
    { method: 'POST', path: '/api/add-user-college', body: { userId: alice.uid, collegeName: LISTED } },
    alice.idToken,
  );
  expect(added.status, added.text).toBe(200);
  await gw.db.query(
    `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
     VALUES ($1, $2, $3, '{}'::json)`,
    [alice.uid, normaliseCollegeName(OLD_ENTRY), OLD_ENTRY],
  );
  const note = await send(
    gw.app,
    {
      method: 'POST',
      path: '/api/add-note',
      body: { userId: alice.uid, collegeName: LISTED, note: { title: 'Visit', content: 'Campus tour' } },
    },
    alice.idToken,
  );
  expect(note.status, note.text).toBeLessThan(300);
});
afterAll(async () => {
  await gw?.close();
  delete process.env.OPENAI_API_KEY;
  delete process.env.LOAD_SNAPSHOT;
});

/** Calls a route as its rightful caller: admins for admin routes, a service for internal ones. */
async function call(r: RouteDef): Promise<{ status: number; text: string; url: string }> {
  const caller = r.access === 'admin' ? carol : alice;
  const req = validRequest(r, hintsFor(caller));
  if (r.access === 'internal') {
    const res = await gw.api(r.method, urlOf(req), {
      internal: { uid: alice.uid, email: null, emailVerified: true, name: 'Alice' },
    });
    return { status: res.status, text: JSON.stringify(res.body).slice(0, 200), url: urlOf(req) };
  }
  const res = await send(gw.app, req, r.access === 'public' ? undefined : caller.idToken);
  return { status: res.status, text: res.text.slice(0, 200), url: urlOf(req) };
}

describe('reads only read', () => {
  it('has GET routes to check', () => {
    expect(GET_ROUTES.length).toBeGreaterThan(20);
  });

  it('names only real GET routes as cache-filling, and they do fill the cache', async () => {
    for (const name of Object.keys(CACHE_FILLING)) {
      expect(GET_ROUTES.map(label)).toContain(name);
    }
    const before = await settledSnapshot(gw.db);
    const res = await send(
      gw.app,
      { method: 'GET', path: '/api/get-major-profile', query: { collegeName: LISTED, major: 'Biology' } },
      alice.idToken,
    );
    expect(res.status, res.text).toBe(202);
    const changed = differences(before, await settledSnapshot(gw.db));
    expect(changed).toContain('"colleges"."major_profile": 1 row(s) added');
  });

  it.each(GET_ROUTES.map((r) => [label(r), r] as const))('%s leaves every table as it was', async (_l, r) => {
    const before = await settledSnapshot(gw.db);
    const res = await call(r);
    expect(res.status, `${res.url}: ${res.text}`).toBeLessThan(500);
    // Twice: a second read must not write what the first one did not.
    await call(r);
    const changed = differences(before, await settledSnapshot(gw.db));
    const allowed = [AUDIT_TRAIL, ...(CACHE_FILLING[label(r)] ?? [])];
    expect(changed.filter((d) => !allowed.some((t) => d.startsWith(`${t}:`)))).toEqual([]);
  });
});
