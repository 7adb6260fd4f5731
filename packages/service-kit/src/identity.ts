import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from './context.ts';
import { INTERNAL_AUTH_HEADER, verifyInternalCall, type InternalKey } from './internal-auth.ts';

/** Reads a trusted identity from a signed internal call; `internal` stays false without a valid signature. */
export function readInternalIdentity(request: FastifyRequest, key: InternalKey): void {
  const header = request.headers[INTERNAL_AUTH_HEADER];
  const auth = verifyInternalCall(key, typeof header === 'string' ? header : undefined, request);
  if (auth === undefined) {
    request.internal = false;
    return;
  }
  request.internal = true;
  request.auth = auth;
}

/**
 * Decorates requests with `auth` and `internal`. With `verify`, an Authorization bearer token is checked
 * (the gateway); services behind a gateway trust only signed internal calls.
 */
export function installIdentity(
  app: FastifyInstance,
  key: InternalKey,
  verify?: (request: FastifyRequest) => Promise<AuthContext | { error: string } | null>,
): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('internal', false);
  app.decorateRequest('authError', null);
  app.addHook('onRequest', async (request) => {
    readInternalIdentity(request, key);
    if (request.internal || !verify) return;
    const result = await verify(request);
    if (result && 'error' in result) request.authError = result.error;
    else request.auth = result;
  });
}

/**
 * The SHA-256 (hex) of a uid: how the record of deleted accounts names one (the auth service writes it,
 * the gateway checks every request against it), so the record itself keeps no uid.
 */
export function uidSha256(uid: string): string {
  return createHash('sha256').update(uid).digest('hex');
}
