import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INTERNAL_HEADERS, type AuthContext } from './context.ts';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Reads a trusted identity from internal headers; null (and `internal` false) without the right token. */
export function readInternalIdentity(request: FastifyRequest, internalToken: string): void {
  const token = request.headers[INTERNAL_HEADERS.token];
  if (typeof token !== 'string' || !safeEqual(token, internalToken)) {
    request.internal = false;
    return;
  }
  request.internal = true;
  const uid = request.headers[INTERNAL_HEADERS.uid];
  if (typeof uid === 'string' && uid) {
    const name = request.headers[INTERNAL_HEADERS.name];
    const email = request.headers[INTERNAL_HEADERS.email];
    request.auth = {
      uid,
      email: typeof email === 'string' ? email : null,
      emailVerified: request.headers[INTERNAL_HEADERS.emailVerified] === 'true',
      name: typeof name === 'string' ? decodeURIComponent(name) : null,
    } satisfies AuthContext;
  }
}

/**
 * Decorates requests with `auth` and `internal`. With `verify`, an Authorization bearer token is checked
 * (the gateway); services behind a gateway trust only the internal headers.
 */
export function installIdentity(
  app: FastifyInstance,
  internalToken: string,
  verify?: (request: FastifyRequest) => Promise<AuthContext | { error: string } | null>,
): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('internal', false);
  app.decorateRequest('authError', null);
  app.addHook('onRequest', async (request) => {
    readInternalIdentity(request, internalToken);
    if (request.internal || !verify) return;
    const result = await verify(request);
    if (result && 'error' in result) request.authError = result.error;
    else request.auth = result;
  });
}
