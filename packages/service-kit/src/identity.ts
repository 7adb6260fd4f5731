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

/** What a bearer-token check answers: an identity, why the token is refused, or null without a token. */
export type VerifyResult = AuthContext | { error: string } | null;

/**
 * Checks a request's bearer token: synchronously when the answer is cached (the hot path), else a promise.
 */
export type Verify = (request: FastifyRequest) => VerifyResult | Promise<VerifyResult>;

function applyVerified(request: FastifyRequest, result: VerifyResult): void {
  if (result && 'error' in result) request.authError = result.error;
  else request.auth = result;
}

/**
 * Decorates requests with `auth` and `internal`. With `verify`, an Authorization bearer token is checked
 * (the gateway); services behind a gateway trust only signed internal calls. Callback style, and no promise
 * when `verify` answers from its cache: this hook runs on every request.
 */
export function installIdentity(app: FastifyInstance, key: InternalKey, verify?: Verify): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('internal', false);
  app.decorateRequest('authError', null);
  app.addHook('onRequest', (request, _reply, done) => {
    readInternalIdentity(request, key);
    if (request.internal || !verify) return done();
    let result: VerifyResult | Promise<VerifyResult>;
    try {
      result = verify(request);
    } catch (err) {
      return done(err as Error);
    }
    if (result instanceof Promise) {
      result.then(
        (r) => {
          applyVerified(request, r);
          done();
        },
        (err: unknown) => done(err as Error),
      );
    } else {
      applyVerified(request, result);
      done();
    }
  });
}

/**
 * The SHA-256 (hex) of a uid: how the record of deleted accounts names one (the auth service writes it,
 * the gateway checks every request against it), so the record itself keeps no uid.
 */
export function uidSha256(uid: string): string {
  return createHash('sha256').update(uid).digest('hex');
}
