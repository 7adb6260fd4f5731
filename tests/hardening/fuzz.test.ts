// Bad-input fuzz over every route of the table (internal ones as signed internal calls, as a service
// would make them). Inputs come from each route's own schema: wrong types, missing fields, values over
// their limits, invalid dates, 1 MB bodies, bodies that are not JSON, operator objects, SQL and Unicode
// edge cases. A fixed seed and a fixed count per route make every run send the same requests.
//
// The rule for each answer:
// - never a 5xx;
// - input the schema refuses gets a 4xx with a clear `{success:false, message, code}`;
// - every 4xx leaves the database exactly as it was (every row of every table of every service schema);
// - input the schema accepts (hostile but well-formed text) may succeed, but may not touch anything that
//   existed before the fuzz started (another student's notes and list, the college cache, staff roles).
import { randomBytes, randomUUID } from 'node:crypto';
import type { RouteDef } from '@ct/contracts';
import { internalKey, signInternalCall } from '@ct/service-kit';
import {
  adminUpdate,
  buildCollege,
  createVerifiedUser,
  gatewaySuite,
  seedColleges,
  tokenClaims,
  unsignedToken,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzCases, type FuzzCase } from './lib/cases.ts';
import { hashSeed, pick, seededRandom } from './lib/rng.ts';
import {
  ALL_ROUTES,
  label,
  send,
  sendHttp,
  unclearError,
  urlOf,
  validRequest,
  type ApiResponse,
} from './lib/routes.ts';
import { accepts, type JsonSchema } from './lib/schema.ts';
import { differences, lostFrom, rowCount, settledSnapshot, snapshot, type Snapshot } from './lib/snapshot.ts';
import { grantRole } from './lib/users.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const PER_ROUTE = Number(process.env.FUZZ_CASES_PER_ROUTE ?? 40);
const INTERNAL_TOKEN = randomBytes(32).toString('hex');

const tag = randomUUID().slice(0, 8);
const COLLEGE = `Fuzz State University ${tag}`;
const BOB_COLLEGE = `Fuzz Bob College ${tag}`;

let carol: TestUser; // the caller: an admin, so that admin routes get past the role check too
let bob: TestUser; // owns data the fuzz must never touch
let baseline: Snapshot;
let sent = 0;

function hintsFor(user: TestUser): Record<string, unknown> {
  return {
    userId: user.uid,
    uid: user.uid,
    collegeName: COLLEGE,
    name: COLLEGE,
    query: COLLEGE.slice(0, 4),
    major: 'Computer Science',
    prompt: 'Why us?',
    key: COLLEGE.toLowerCase(),
    noteTitle: 'Fuzz note',
    noteContent: 'Content',
    note: { title: 'Fuzz note', content: 'Content', deadline: '2027-01-15' },
    section: 'application',
    itemIndex: 0,
    completed: true,
    homeState: 'ME',
    incomeBand: '48001-75000',
    body: 'A draft',
    who: 'Ms. Rivera',
    recommenderId: FUZZ_RECOMMENDER,
    draftId: FUZZ_DRAFT,
    // The admin's merge and delete of a college name it by row id: one no row has, so a sweep or fuzz
    // request that gets through changes nothing that exists.
    collegeId: 2_000_000_001,
  };
}
const FUZZ_RECOMMENDER = randomUUID();
const FUZZ_DRAFT = randomUUID();

/** Carol's session signed in half an hour ago (still valid, not recent). */
let staleCarol: string;

const show = (r: ApiResponse) => `${r.status} ${r.text.slice(0, 160)}`;

const { gw } = gatewaySuite({ listen: true, env: { RUN_WORKER: 'false', INTERNAL_TOKEN } });
beforeAll(async () => {
  await seedColleges(gw.db, [buildCollege({ name: COLLEGE }), buildCollege({ name: BOB_COLLEGE })]);
  [carol, bob] = await Promise.all([
    createVerifiedUser({ name: 'Carol' }),
    createVerifiedUser({ name: 'Bob' }),
  ]);
  await grantRole(gw.db, carol.uid, 'admin');
  const now = Math.floor(Date.now() / 1000);
  await adminUpdate(carol.uid, { validSince: String(now - 3600) });
  staleCarol = unsignedToken(tokenClaims(carol.uid, { email: carol.email, auth_time: now - 1800 }));
  // Bob's data, made through the API as he would. Features not built yet simply leave less to protect;
  // the baseline below is whatever exists.
  const api = (path: string, body: unknown) => gw.api('POST', `/api${path}`, { token: bob.idToken, body });
  await api('/add-user-college', { collegeName: BOB_COLLEGE });
  await api('/add-note', { note: { title: 'Bob private', content: 'Mine', deadline: '2027-02-01' } });
  await api('/update-student-profile', { homeState: 'VT', incomeBand: '0-30000' });
  await api('/save-essay-draft', { prompt: 'Why us?', body: 'Bob private draft' });
  await api('/save-recommender', {
    collegeName: BOB_COLLEGE,
    recommenderId: randomUUID(),
    who: 'Bob private',
  });
  baseline = await snapshot(gw.db);
});
afterAll(async () => {
  console.log(
    `fuzz: ${sent} requests over ${ALL_ROUTES.length} routes (seed ${SEED}, ${PER_ROUTE} per route)`,
  );
});

describe('the fuzz setup', () => {
  it('protects real data: the baseline holds colleges, a staff role and other rows', () => {
    expect(rowCount(baseline)).toBeGreaterThan(3);
  });
});

/** Why this answer to this case breaks the rules; empty when it does not. */
function judge(r: RouteDef, c: FuzzCase, res: ApiResponse, before: Snapshot, after: Snapshot): string[] {
  const problems: string[] = [];
  let mustReject = true;
  if (c.judge.kind === 'parsed') {
    const schema = (c.judge.part === 'body' ? r.schema.body : r.schema.querystring) as JsonSchema | undefined;
    mustReject = schema ? !accepts(schema, c.judge.value, c.judge.part) : false;
  }
  if (res.status >= 500) problems.push(`server error ${show(res)}`);
  else if (res.status >= 400) {
    const sentText = `${JSON.stringify(c.req.query ?? {})}${JSON.stringify(c.req.body ?? '')}${String(c.req.raw?.payload ?? '')}`;
    for (const p of unclearError(res, sentText)) problems.push(`unclear ${res.status}: ${p}`);
    const diff = differences(before, after);
    if (diff.length) problems.push(`a ${res.status} changed the database: ${diff.join('; ')}`);
  } else {
    if (mustReject) problems.push(`accepted input its schema refuses: ${show(res)}`);
    if (r.access !== 'internal') {
      const lost = lostFrom(baseline, after, before);
      if (lost.length) problems.push(`touched data that existed before: ${lost.join('; ')}`);
    }
  }
  return problems;
}

describe.each(ALL_ROUTES.map((r) => [label(r), r] as const))('%s', (_l, r: RouteDef) => {
  it('answers bad input with a clear 4xx, never a 5xx, and bad input changes nothing', async () => {
    const hints = hintsFor(carol);
    const valid = validRequest(r, hints);
    const all = fuzzCases(r, valid, hints);
    const chosen = pick(all, PER_ROUTE, seededRandom(hashSeed(label(r), SEED)));
    const key = internalKey(INTERNAL_TOKEN);
    const auth = { uid: carol.uid, email: carol.email, emailVerified: true, name: carol.name };
    // Signed for each case's own method and URL, as the service clients sign every call.
    const headers = (c: FuzzCase) =>
      r.access === 'internal'
        ? signInternalCall(key, { method: c.req.method, url: urlOf(c.req), auth })
        : undefined;
    // The route that deletes the caller's account runs on a session older than its recent-sign-in rule,
    // so well-formed cases are refused (401) instead of deleting the account every later case uses.
    const token =
      r.access === 'internal' ? undefined : r.path === '/delete-account' ? staleCarol : carol.idToken;
    const failures: string[] = [];
    let before = await snapshot(gw.db);
    for (const c of chosen) {
      const res = await send(gw.app, { ...c.req, headers: { ...c.req.headers, ...headers(c) } }, token);
      sent++;
      // An internal call that is accepted may publish events whose consumers write a moment later: wait
      // for them, so that the next case is judged on its own changes only.
      const after =
        // A streamed reply (the export) releases its claim as the stream closes, just after the answer.
        (r.access === 'internal' || r.stream) && res.status < 400
          ? await settledSnapshot(gw.db)
          : await snapshot(gw.db);
      for (const p of judge(r, c, res, before, after)) failures.push(`${c.label} → ${p}`);
      before = after;
    }
    expect(chosen.length).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});

describe('limits only a real socket has', () => {
  const route = ALL_ROUTES.find((r) => r.method === 'GET' && r.access === 'user' && r.schema.querystring);
  const post = ALL_ROUTES.find((r) => r.method === 'POST' && r.access === 'user' && r.schema.body);

  it('refuses a 1 MB URL and 1 MB of headers with a 4xx, and keeps serving', async () => {
    const valid = validRequest(route!, hintsFor(carol));
    const first = Object.keys(valid.query ?? {})[0] ?? 'q';
    const longUrl = await sendHttp(
      gw.url,
      { ...valid, query: { [first]: 'u'.repeat(1024 * 1024) } },
      carol.idToken,
    );
    expect(longUrl.status, show(longUrl)).toBeGreaterThanOrEqual(400);
    expect(longUrl.status, show(longUrl)).toBeLessThan(500);
    const fatHeaders = await sendHttp(
      gw.url,
      { ...valid, headers: { 'x-padding': 'h'.repeat(1024 * 1024) } },
      carol.idToken,
    );
    expect(fatHeaders.status, show(fatHeaders)).toBeGreaterThanOrEqual(400);
    expect(fatHeaders.status, show(fatHeaders)).toBeLessThan(500);
    const ok = await sendHttp(gw.url, valid, carol.idToken);
    expect(ok.status, show(ok)).toBeLessThan(500);
  });

  it('refuses a 1 MB JSON body over HTTP with 413 and a clear message, changing nothing', async () => {
    const before = await snapshot(gw.db);
    const valid = validRequest(post!, hintsFor(carol));
    const res = await sendHttp(
      gw.url,
      { ...valid, body: { ...(valid.body as object), pad: 'p'.repeat(1024 * 1024) } },
      carol.idToken,
    );
    expect(res.status, show(res)).toBe(413);
    expect(unclearError(res)).toEqual([]);
    expect(differences(before, await snapshot(gw.db))).toEqual([]);
  });
});
