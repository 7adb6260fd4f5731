import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createBaseApp,
  INTERNAL_AUTH_HEADER,
  INTERNAL_CALL_TTL_S,
  internalKey,
  internalVerifier,
  signInternalCall,
  stripInternalHeaders,
  verifyInternalCall,
} from './index.ts';

const secret = randomBytes(32).toString('hex');
const key = internalKey(secret);
const alice = {
  uid: 'alice-uid',
  email: 'alice@school.test',
  emailVerified: true,
  name: 'Alice',
  authTime: 1,
};

function header(call: Parameters<typeof signInternalCall>[1], now?: number): string {
  return signInternalCall(key, call, now)[INTERNAL_AUTH_HEADER]!;
}

describe('signed internal calls', () => {
  const call = { method: 'GET', url: '/api/internal/profile-notes?limit=5', auth: alice };

  it('carry the identity for exactly the method and URL they were signed for', () => {
    expect(verifyInternalCall(key, header(call), call)).toEqual(alice);
    expect(verifyInternalCall(key, header({ ...call, auth: null }), call)).toBeNull();
  });

  it('are refused for another method, path or query, or with another key', () => {
    const h = header(call);
    expect(verifyInternalCall(key, h, { ...call, method: 'POST' })).toBeUndefined();
    expect(
      verifyInternalCall(key, h, { ...call, url: '/api/internal/user-colleges?limit=5' }),
    ).toBeUndefined();
    expect(
      verifyInternalCall(key, h, { ...call, url: '/api/internal/profile-notes?limit=500' }),
    ).toBeUndefined();
    expect(verifyInternalCall(internalKey(randomBytes(32).toString('hex')), h, call)).toBeUndefined();
  });

  it('expire after a minute', () => {
    const signedAt = Date.now();
    const h = header(call, signedAt);
    expect(verifyInternalCall(key, h, call, signedAt + (INTERNAL_CALL_TTL_S - 1) * 1000)).toEqual(alice);
    expect(verifyInternalCall(key, h, call, signedAt + (INTERNAL_CALL_TTL_S + 1) * 1000)).toBeUndefined();
  });

  it('cannot be edited: another uid in the claims breaks the signature', () => {
    const [payload, mac] = header(call).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { a: { uid: string } };
    claims.a.uid = 'mallory-uid';
    const forged = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${mac}`;
    expect(verifyInternalCall(key, forged, call)).toBeUndefined();
    expect(verifyInternalCall(key, 'not-a-signature', call)).toBeUndefined();
    expect(verifyInternalCall(key, undefined, call)).toBeUndefined();
  });

  it('match the URL as the receiving side parses it (dot segments, encoding)', () => {
    const sent = { method: 'GET', url: '/api/internal/colleges/../staff?q=a b', auth: null };
    expect(
      verifyInternalCall(key, header(sent), { method: 'GET', url: '/api/internal/staff?q=a%20b' }),
    ).toBeNull();
  });

  it('kept for their second by a verifier, still answer exactly what a fresh check answers', () => {
    const verify = internalVerifier(key);
    const signedAt = Date.now();
    const h = header(call, signedAt);
    // The same header again and again: the identity each time, and never for another request.
    for (let i = 0; i < 3; i++) {
      expect(verify(h, call, signedAt)).toEqual(alice);
      expect(verify(h, { ...call, method: 'POST' }, signedAt)).toBeUndefined();
      expect(verify(h, { ...call, url: '/api/internal/profile-notes?limit=500' }, signedAt)).toBeUndefined();
    }
    // Another spelling of the signed URL is parsed as before; expiry is checked on every request.
    const sent = { method: 'GET', url: '/api/internal/colleges/../staff?q=a b', auth: null };
    const dotted = header(sent, signedAt);
    expect(verify(dotted, { method: 'GET', url: '/api/internal/staff?q=a%20b' }, signedAt)).toBeNull();
    expect(verify(dotted, sent, signedAt)).toBeNull();
    expect(verify(h, call, signedAt + (INTERNAL_CALL_TTL_S + 1) * 1000)).toBeUndefined();
    // A forged header is never kept: refused every time, and the real one still passes.
    const [payload, mac] = h.split('.');
    const forged = `${payload}.${mac!.slice(1)}${mac![0] === 'A' ? 'B' : 'A'}`;
    expect(verify(forged, call, signedAt)).toBeUndefined();
    expect(verify(forged, call, signedAt)).toBeUndefined();
    expect(verify(h, call, signedAt)).toEqual(alice);
    expect(internalVerifier(internalKey(randomBytes(32).toString('hex')))(h, call, signedAt)).toBeUndefined();
  });

  it('the public listener drops every internal header, whatever its value', () => {
    const headers = {
      'x-internal-auth': header(call),
      'x-internal-token': secret,
      'x-auth-uid': 'alice-uid',
      'x-auth-email-verified': 'true',
      authorization: 'Bearer abc',
      'x-request-id': 'r1',
    };
    stripInternalHeaders(headers);
    expect(headers).toEqual({ authorization: 'Bearer abc', 'x-request-id': 'r1' });
  });
});

describe('a service behind the gateway', () => {
  it('treats a call as internal only with a valid signature for that route', async () => {
    const app = createBaseApp({ name: 'svc', internalToken: secret, logLevel: 'silent' });
    app.get('/api/who', async (request) => ({ internal: request.internal, uid: request.auth?.uid ?? null }));
    const who = (headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/api/who', headers }).then((r) => r.json() as unknown);

    expect(await who(signInternalCall(key, { method: 'GET', url: '/api/who', auth: alice }))).toEqual({
      internal: true,
      uid: 'alice-uid',
    });
    // The old shared-token headers mean nothing, even with the real secret.
    expect(await who({ 'x-internal-token': secret, 'x-auth-uid': 'alice-uid' })).toEqual({
      internal: false,
      uid: null,
    });
    // Signed for another route: replaying it here does not work.
    expect(await who(signInternalCall(key, { method: 'GET', url: '/api/other', auth: alice }))).toEqual({
      internal: false,
      uid: null,
    });
    await app.close();
  });
});
