// The complete authorization sweep, generated from the route table (ROUTES): a route added to the table is
// swept without touching this file. tests/api/authorization.test.ts (identity) checks the basic rule, "user A
// with user B's id gets 403, admin routes refuse students and anonymous callers"; this file covers every
// other way in: every kind of bad credential on every signed-in route, the userId in the other part of
// the request, admins acting for someone else, staff that are not admins, a role revoked mid-session,
// internal routes from outside (with a token, forged headers or bad input), and whether one student's data
// can be read or changed by another through any route.
import { randomUUID } from 'node:crypto';
import type { RouteDef } from '@ct/contracts';
import {
  buildCollege,
  createVerifiedUser,
  disableUser,
  gatewaySuite,
  revokeTokens,
  seedColleges,
  signUp,
  tokenClaims,
  uniqueEmail,
  unsignedToken,
  type TestUser,
} from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_ROUTES,
  PUBLIC_ROUTES,
  INTERNAL_ROUTES,
  SIGNED_IN_ROUTES,
  inputSchema,
  label,
  send,
  takesUserId,
  validRequest,
  type ApiRequest,
  type ApiResponse,
} from './lib/routes.ts';
import { deleteAccount, grantRole, revokeRole } from './lib/users.ts';

let alice: TestUser; // the caller
let bob: TestUser; // the other student, whose data must stay his
let carol: TestUser; // an admin
let sam: TestUser; // staff, not admin
const creds: Record<string, string> = {};

const tag = randomUUID().slice(0, 8);
const SHARED_COLLEGE = `Sweep State University ${tag}`;
const BOB_COLLEGE = `Bobs Private College ${tag}`;
const BOB_MARK = `bob-secret-${tag}`;

/** Each student's recommender id, fixed so that saving it twice changes the one recommender. */
const RECOMMENDER_IDS: Record<string, string> = { Alice: randomUUID(), Bob: randomUUID() };

/** Inputs that the schemas accept and that point at real data, so requests get past validation. */
function hintsFor(user: TestUser, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    userId: user.uid,
    uid: user.uid,
    collegeName: SHARED_COLLEGE,
    name: SHARED_COLLEGE,
    query: SHARED_COLLEGE.slice(0, 5),
    major: 'Computer Science',
    prompt: 'Why us?',
    key: SHARED_COLLEGE.toLowerCase(),
    noteTitle: `note of ${user.name}`,
    noteContent: 'Content',
    note: { title: `note of ${user.name}`, content: 'Content', deadline: '2027-01-15' },
    section: 'application',
    itemIndex: 0,
    // A push subscription's endpoint, one per student (a device belongs to one student).
    endpoint: `https://fcm.googleapis.com/fcm/send/${user.uid}`,
    completed: true,
    homeState: 'ME',
    incomeBand: '48001-75000',
    body: `Draft of ${user.name}`,
    who: `Recommender of ${user.name}`,
    // A client makes a new recommender's id; a made-up draft id finds nothing (404), which is enough here.
    recommenderId: RECOMMENDER_IDS[user.name] ?? randomUUID(),
    draftId: randomUUID(),
    // The admin's merge and delete of a college name it by row id: one no row has, so a sweep or fuzz
    // request that gets through changes nothing that exists.
    collegeId: 2_000_000_001,
    ...over,
  };
}

const bobHints = () =>
  hintsFor(bob, {
    collegeName: BOB_COLLEGE,
    name: BOB_COLLEGE,
    noteTitle: BOB_MARK,
    noteContent: `${BOB_MARK} content`,
    note: { title: BOB_MARK, content: `${BOB_MARK} content`, deadline: '2027-03-01' },
    body: `${BOB_MARK} draft`,
    who: `${BOB_MARK} recommender`,
  });

const describeRes = (r: ApiResponse) => `${r.status} ${r.text.slice(0, 140)}`;

// A mail relay is configured (never reached: the job does not run) so the weekly e-mail's settings can be set.
const { gw } = gatewaySuite({
  env: { RUN_WORKER: 'false', REMINDER_EVERY_MS: '0', SMTP_URL: 'smtp://digest:pw@127.0.0.1:9' },
});
beforeAll(async () => {
  await seedColleges(gw.db, [buildCollege({ name: SHARED_COLLEGE }), buildCollege({ name: BOB_COLLEGE })]);
  const names = ['Alice', 'Bob', 'Carol', 'Sam', 'Rev', 'Dis', 'Del'] as const;
  const [a, b, c, s, rev, dis, del] = await Promise.all(names.map((name) => createVerifiedUser({ name })));
  [alice, bob, carol, sam] = [a!, b!, c!, s!];
  await grantRole(gw.db, carol.uid, 'admin');
  await grantRole(gw.db, sam.uid, 'staff');
  const unverified = await signUp(uniqueEmail('unverified'), 'Secret-pass-123', 'Una');
  await Promise.all([revokeTokens(rev!.uid), disableUser(dis!.uid), deleteAccount(del!.uid)]);
  const past = { iat: 1_600_000_000, auth_time: 1_600_000_000, exp: 1_600_003_600 };
  Object.assign(creds, {
    'no token': '',
    'expired token': unsignedToken(tokenClaims(alice.uid, past)),
    'revoked token': rev!.idToken,
    'disabled account': dis!.idToken,
    'deleted account': del!.idToken,
    'unverified e-mail': unverified.idToken,
    'other project': unsignedToken(
      tokenClaims(alice.uid, { aud: 'demo-other', iss: 'https://securetoken.google.com/demo-other' }),
    ),
    'not a JWT': 'not-a-jwt',
  });
});

/** Sends with a raw Authorization header value (or none). */
const sendAuth = (req: ApiRequest, header: string | null) =>
  send(gw.app, { ...req, headers: { ...req.headers, ...(header ? { authorization: header } : {}) } });

describe('the route table', () => {
  it('has signed-in routes to sweep', () => {
    expect(SIGNED_IN_ROUTES.length).toBeGreaterThan(10);
  });

  // The generated requests must reach the access check, not stop at validation: a 400 here means the
  // sweep below would prove nothing for that route.
  it.each(SIGNED_IN_ROUTES.map((r) => [label(r), r] as const))(
    '%s: the sweep request passes validation for its rightful caller',
    async (_l, r) => {
      // Deleting an account is proven on an account made for it: Alice is needed for the rest.
      const owner =
        r.path === '/delete-account'
          ? await createVerifiedUser({ name: 'Leaving' })
          : r.access === 'admin'
            ? carol
            : alice;
      const res = await send(gw.app, validRequest(r, hintsFor(owner)), owner.idToken);
      expect(res.status, describeRes(res)).not.toBe(400);
      expect([401, 403], describeRes(res)).not.toContain(res.status);
    },
  );
});

describe.each(SIGNED_IN_ROUTES.map((r) => [label(r), r] as const))('%s', (_l, r: RouteDef) => {
  it('answers 401 with a reason to every caller without a valid session', async () => {
    const req = validRequest(r, hintsFor(alice));
    const wrong: string[] = [];
    for (const [kind, token] of Object.entries(creds)) {
      const res = await sendAuth(req, token ? `Bearer ${token}` : null);
      if (res.status !== 401 || res.json?.success !== false || typeof res.json?.message !== 'string')
        wrong.push(`${kind}: ${describeRes(res)}`);
    }
    for (const header of ['Bearer', 'Basic YWxpY2U6c2VjcmV0', `Bearer ${alice.idToken} extra`, 'bearer']) {
      const res = await sendAuth(req, header);
      if (res.status !== 401) wrong.push(`Authorization "${header.slice(0, 20)}…": ${describeRes(res)}`);
    }
    expect(wrong).toEqual([]);
  });

  if (takesUserId(r)) {
    it("refuses to act on another student's userId, wherever in the request it is sent", async () => {
      const input = inputSchema(r)!;
      const own = validRequest(r, hintsFor(alice));
      // tests/api/authorization.test.ts has the plain cases (the other id in the query or the body, own id
      // in the query with the other in the body, an admin in the query); these are the remaining ways.
      const cases: Array<[string, ApiRequest, TestUser]> = [];
      const withBody = (u: string | undefined) => ({ ...(own.body as object), userId: u });
      if (input.part === 'body') {
        cases.push([
          'userId in the query, none in the body',
          { ...own, body: withBody(undefined), query: { userId: bob.uid } },
          alice,
        ]);
        cases.push([
          'own userId in the body, the other in the query',
          { ...own, body: withBody(alice.uid), query: { userId: bob.uid } },
          alice,
        ]);
        cases.push(["an admin sending a student's userId", { ...own, body: withBody(bob.uid) }, carol]);
      } else {
        cases.push([
          'both userIds in the query',
          { ...own, query: { ...own.query, userId: [alice.uid, bob.uid] } },
          alice,
        ]);
        cases.push([
          'the other userId twice',
          { ...own, query: { ...own.query, userId: [bob.uid, bob.uid] } },
          alice,
        ]);
      }
      const wrong: string[] = [];
      for (const [what, req, caller] of cases) {
        const res = await send(gw.app, req, caller.idToken);
        // 403 is the rule; 400 is acceptable where the request is malformed (two values for one field).
        if (res.status !== 403 && res.status !== 400) wrong.push(`${what}: ${describeRes(res)}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  if (r.access === 'admin') {
    it('refuses students, non-admin staff and admins acting under another id', async () => {
      const wrong: string[] = [];
      const tries: Array<[string, TestUser, Record<string, unknown>]> = [
        ['student', alice, hintsFor(alice)],
        ['staff (not admin)', sam, hintsFor(sam)],
      ];
      if (takesUserId(r)) {
        tries.push(["student sending the admin's userId", alice, hintsFor(alice, { userId: carol.uid })]);
        tries.push(["admin sending a student's userId", carol, hintsFor(carol, { userId: alice.uid })]);
      }
      for (const [who, user, hints] of tries) {
        const res = await send(gw.app, validRequest(r, hints), user.idToken);
        if (res.status !== 403 || res.json?.success !== false) wrong.push(`${who}: ${describeRes(res)}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});

// A public route stands in for the session with a secret in its path (a calendar feed token): made-up
// secrets must get nothing.
describe.each(PUBLIC_ROUTES.filter((r) => r.path.includes(':')).map((r) => [label(r), r] as const))(
  'public %s',
  (_l, r: RouteDef) => {
    it('gives nothing for made-up path secrets', async () => {
      const secrets = [
        randomUUID(),
        randomUUID().replace(/-/g, ''),
        'a'.repeat(64),
        '..',
        '%00',
        'null',
        '0',
      ];
      const wrong: string[] = [];
      for (const secret of secrets) {
        const path = `/api${r.path.replace(/:(\w+)/g, () => encodeURIComponent(secret))}`;
        const res = await send(gw.app, { method: r.method, path }, alice.idToken);
        if (res.status < 400 || res.status >= 500) wrong.push(`${secret}: ${describeRes(res)}`);
      }
      expect(wrong).toEqual([]);
    });
  },
);

describe('admin role', () => {
  it('is looked up on every call: revoking it shuts an open session out of every admin route at once', async () => {
    const dave = await createVerifiedUser({ name: 'Dave' });
    await grantRole(gw.db, dave.uid, 'admin');
    const before = await Promise.all(
      ADMIN_ROUTES.map((r) => send(gw.app, validRequest(r, hintsFor(dave)), dave.idToken)),
    );
    expect(before.map((x) => x.status).filter((s) => s === 401 || s === 403)).toEqual([]);
    await revokeRole(gw.db, dave.uid);
    const after = await Promise.all(
      ADMIN_ROUTES.map((r) => send(gw.app, validRequest(r, hintsFor(dave)), dave.idToken)),
    );
    expect(after.map((x, i) => `${label(ADMIN_ROUTES[i]!)} ${x.status}`)).toEqual(
      ADMIN_ROUTES.map((r) => `${label(r)} 403`),
    );
  });
});

describe.each(INTERNAL_ROUTES.map((r) => [label(r), r] as const))('internal %s', (_l, r: RouteDef) => {
  it('does not exist from outside: 404 with a token, forged internal headers or bad input', async () => {
    const valid = validRequest(r, hintsFor(carol));
    const forged = {
      'x-internal-token': 'guess-guess-guess-guess-guess-guess-guess-gu',
      'x-auth-uid': carol.uid,
      'x-auth-email-verified': 'true',
    };
    const bad: ApiRequest = { ...valid, query: { limit: 'lots', name: '' }, body: { key: 42 } };
    const tries: Array<[string, ApiRequest, string | undefined]> = [
      ['admin token', valid, carol.idToken],
      ['no token', valid, undefined],
      ['forged internal headers', { ...valid, headers: forged }, undefined],
      ['forged headers and an admin token', { ...valid, headers: forged }, carol.idToken],
      ['malformed input', bad, carol.idToken],
      ['malformed input, no token', bad, undefined],
    ];
    const wrong: string[] = [];
    for (const [what, req, token] of tries) {
      const res = await send(gw.app, req, token);
      if (res.status !== 404) wrong.push(`${what}: ${describeRes(res)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("one student's data", () => {
  const userRoutes = () => SIGNED_IN_ROUTES.filter((r) => r.access === 'user');
  const reads = () => userRoutes().filter((r) => r.method === 'GET' && takesUserId(r));
  // Routes that create or change the student's data; removals (and revocations) are left out so that
  // Bob's data stays.
  const writes = () =>
    userRoutes().filter((r) => r.method !== 'GET' && !/\/(remove|delete|revoke)/.test(r.path));

  const view = async (user: TestUser, hints: Record<string, unknown>) => {
    const out: Record<string, string> = {};
    for (const r of reads()) {
      const res = await send(gw.app, validRequest(r, { ...hints, userId: undefined }), user.idToken);
      // Only the moment of the answer may differ between two reads of unchanged data.
      out[label(r)] = `${res.status} ${res.text
        .replace(/"(exported|generated|served)At":"[^"]*"/g, '"$1At":"…"')
        .replace(/DTSTAMP:\d{8}T\d{6}Z/g, 'DTSTAMP:…')}`;
    }
    return out;
  };

  it('can be neither read nor changed by another student through any route', async () => {
    // Bob fills in his data through every write route of the table.
    const made: string[] = [];
    for (const r of writes()) {
      const res = await send(gw.app, validRequest(r, bobHints()), bob.idToken);
      if (res.status >= 300) made.push(`${label(r)}: ${describeRes(res)}`);
    }
    expect(made, 'Bob could not create his data (a feature missing?)').toEqual([]);
    const bobBefore = await view(bob, bobHints());
    expect(Object.values(bobBefore).join('\n')).toContain(BOB_MARK);

    // Alice reads everything there is to read: nothing of Bob's may come back.
    for (const hints of [hintsFor(alice), { ...bobHints(), userId: undefined }]) {
      for (const r of userRoutes().filter((x) => x.method === 'GET')) {
        const res = await send(gw.app, validRequest(r, { ...hints, userId: undefined }), alice.idToken);
        expect.soft(res.text, `${label(r)} as Alice`).not.toContain(BOB_MARK);
        expect.soft(res.text, `${label(r)} as Alice`).not.toContain(bob.uid);
      }
    }
    // Alice aims every route (removals included) at Bob's college and note titles, under her own identity.
    for (const r of userRoutes().filter((x) => x.method !== 'GET')) {
      await send(gw.app, validRequest(r, { ...bobHints(), userId: undefined }), alice.idToken);
    }
    expect(await view(bob, bobHints())).toEqual(bobBefore);
  });
});
