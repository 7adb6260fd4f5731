// Issues 46 and 50.5 (ADR 0100): headers follow the content type. Every page a browser renders (the SPA's
// routes, a share page, the API docs, the ops dashboard's sign-in) carries the full document set; every
// JSON answer under /api carries the API set: private (no-store) unless the route says otherwise,
// nosniff, a CSP that allows nothing. Generated from the route table, so a new route is checked too.
import { createVerifiedUser, startTestGateway, type TestGateway, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES, label, send, validRequest } from './lib/routes.ts';

let gw: TestGateway;
let alice: TestUser;

beforeAll(async () => {
  process.env.LOAD_SNAPSHOT = 'false';
  // The test is its own proxy on loopback (TRUST_PROXY), so it can say a request came over TLS.
  gw = await startTestGateway({ env: { RUN_WORKER: 'false', TRUST_PROXY: '127.0.0.1' } });
  alice = await createVerifiedUser({ name: 'Alice' });
});
afterAll(async () => {
  await gw?.close();
  delete process.env.LOAD_SNAPSHOT;
});

type Headers = Record<string, string | string[] | number | undefined>;

/** The document set: what helmet gives a page, with the app's CSP. */
function expectDocumentHeaders(h: Headers, what: string) {
  expect(String(h['content-security-policy']), what).toMatch(/default-src 'self'/);
  expect(String(h['content-security-policy']), what).toMatch(/frame-ancestors 'self'/);
  expect(h['x-frame-options'], what).toBe('SAMEORIGIN');
  expect(h['cross-origin-opener-policy'], what).toBe('same-origin-allow-popups');
  expect(h['x-content-type-options'], what).toBe('nosniff');
  expect(h['referrer-policy'], what).toBeDefined();
  expect(h['strict-transport-security'], what).toBeDefined();
}

/** The API set (OWASP REST Security): and none of a document's headers, which protect nothing here. */
function expectApiHeaders(h: Headers, what: string, cache = 'no-store') {
  expect(h['x-content-type-options'], what).toBe('nosniff');
  expect(h['content-security-policy'], what).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(h['cache-control'], what).toBe(cache);
  expect(h['x-frame-options'], what).toBeUndefined();
  expect(h['cross-origin-opener-policy'], what).toBeUndefined();
  // Over plain http (this test) no HSTS on an API answer; over TLS it is sent (below).
  expect(h['strict-transport-security'], what).toBeUndefined();
}

/** Routes that choose their own caching for what they find; every other answer is `no-store`. */
const OWN_CACHE: Record<string, string> = {
  'GET /download-deadlines.ics': 'private, max-age=300',
  'GET /calendar/:token/deadlines.ics': 'private, max-age=300',
};

describe('headers follow the content type', () => {
  it.each([
    '/',
    '/search',
    '/usercolleges',
    '/profile',
    '/login',
    '/shared/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    '/api/docs/',
  ])('the page %s carries the full document set', async (path) => {
    const r = await gw.app.inject({ method: 'GET', url: path });
    expect(String(r.headers['content-type']), path).toMatch(/text\/html/);
    expectDocumentHeaders(r.headers, path);
  });

  it.each(ALL_ROUTES.filter((r) => r.access !== 'internal').map((r) => [label(r), r] as const))(
    '%s answers JSON with the API set',
    async (name, r) => {
      const req = validRequest(r, { userId: alice.uid, collegeName: 'Nowhere College', name: 'Nowhere' });
      // A POST is sent without its body: the 400 it gets is a JSON answer too, and changes nothing.
      const res = await send(gw.app, r.method === 'GET' ? req : { ...req, body: {} }, alice.idToken);
      const type = String(res.headers['content-type'] ?? '');
      if (res.status === 204) return expectApiHeaders(res.headers, name);
      if (type.includes('text/html')) return expectDocumentHeaders(res.headers, name);
      expectApiHeaders(
        res.headers,
        `${name} (${res.status} ${type})`,
        (res.status === 200 && OWN_CACHE[name]) || 'no-store',
      );
    },
  );

  it('answers errors, the health checks and the session with the API set, and nosniff everywhere', async () => {
    for (const [url, token] of [
      ['/api/get-notes', undefined],
      ['/api/no-such-route', alice.idToken],
      ['/api/healthz', undefined],
      ['/api/readyz', undefined],
      ['/api/me', alice.idToken],
    ] as const) {
      const r = await gw.app.inject({
        method: 'GET',
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(String(r.headers['content-type']), url).toMatch(/application\/json/);
      expectApiHeaders(r.headers, url);
    }
  });

  it('sends HSTS on an API answer that came over TLS, as the proxy in front says', async () => {
    const tls = await gw.app.inject({
      method: 'GET',
      url: '/api/healthz',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await gw.app.inject({ method: 'GET', url: '/api/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('clears the browser cache of this site at sign-out', async () => {
    const r = await gw.app.inject({ method: 'POST', url: '/api/signed-out' });
    expect(r.statusCode).toBe(204);
    expect(r.headers['clear-site-data']).toBe('"cache"');
  });
});

describe('rate-limit headers say something only when it matters', () => {
  it('sends none while most of the window is left, the IETF form in its last fifth, and Retry-After on 429', async () => {
    const limited = await startTestGateway({
      queue: 'memory',
      env: { RUN_WORKER: 'false', RATE_LIMIT_MAX: '10' },
    });
    try {
      const seen: Array<[number, string | undefined, string | undefined, string | undefined]> = [];
      for (let i = 0; i < 11; i++) {
        const r = await limited.app.inject({ method: 'GET', url: '/api/public-config' });
        const h = r.headers;
        expect(h['x-ratelimit-limit']).toBeUndefined();
        seen.push([
          r.statusCode,
          h.ratelimit as string | undefined,
          h['ratelimit-policy'] as string | undefined,
          h['retry-after'] as string | undefined,
        ]);
      }
      expect(seen.slice(0, 8).every(([s, rl, p]) => s === 200 && rl === undefined && p === undefined)).toBe(
        true,
      );
      expect(seen[8]![1]).toMatch(/^limit=10, remaining=1, reset=\d+$/);
      expect(seen[9]![1]).toMatch(/^limit=10, remaining=0, reset=\d+$/);
      expect(seen[9]![2]).toBe('10;w=60');
      const [status, rl, , retry] = seen[10]!;
      expect(status).toBe(429);
      expect(rl).toMatch(/^limit=10, remaining=0, reset=\d+$/);
      expect(Number(retry)).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
