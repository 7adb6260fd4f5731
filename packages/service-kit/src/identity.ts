import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from './context.ts';
import {
  INTERNAL_AUTH_HEADER,
  internalVerifier,
  type InternalKey,
  type InternalVerifier,
} from './internal-auth.ts';
import { installRequestSteps } from './request-steps.ts';

/** Reads a trusted identity from a signed internal call; `internal` stays false without a valid signature. */
export function readInternalIdentity(request: FastifyRequest, verify: InternalVerifier): void {
  const header = request.headers[INTERNAL_AUTH_HEADER];
  const auth = verify(typeof header === 'string' ? header : undefined, request);
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
 * (the gateway); services behind a gateway trust only signed internal calls. The first part of the app's
 * one `onRequest` hook (`installRequestSteps`), the request steps follow it; no promise when `verify`
 * answers from its cache: this runs on every request.
 */
export function installIdentity(app: FastifyInstance, key: InternalKey, verify?: Verify): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('internal', false);
  app.decorateRequest('authError', null);
  const internal = internalVerifier(key);
  installRequestSteps(app, (request) => {
    readInternalIdentity(request, internal);
    if (request.internal || !verify) return undefined;
    const result = verify(request);
    if (!(result instanceof Promise)) {
      applyVerified(request, result);
      return undefined;
    }
    return result.then((r) => {
      applyVerified(request, r);
      return undefined;
    });
  });
}

/**
 * The SHA-256 (hex) of a uid: how the record of deleted accounts names one (the auth service writes it,
 * the gateway checks every request against it), so the record itself keeps no uid.
 */
export function uidSha256(uid: string): string {
  return createHash('sha256').update(uid).digest('hex');
}
