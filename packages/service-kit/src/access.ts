import { internalGetRole, LIMITS, MSG, type Access } from '@ct/contracts';
import type { FastifyRequest } from 'fastify';
import type { ServiceClients } from './clients.ts';
import { AppError, noRouteMessage } from './errors.ts';
import { KIT_MSG } from './messages.ts';

/** Every `userId` a client sent, in the query and in the body: each one must be the caller's own. */
function sentUserIds(request: FastifyRequest): unknown[] {
  const sent: unknown[] = [];
  for (const part of [request.query, request.body]) {
    if (part && typeof part === 'object' && !Array.isArray(part) && 'userId' in part)
      sent.push((part as Record<string, unknown>).userId);
  }
  return sent;
}

/** 401 unless signed in; 403 when a client-sent userId is not the token's uid. */
export function requireUser(request: FastifyRequest): string {
  if (!request.auth) {
    throw new AppError('UNAUTHENTICATED', request.authError ?? MSG.userNotAuthenticated);
  }
  for (const sent of sentUserIds(request)) {
    if (sent !== undefined && sent !== null && sent !== '' && sent !== request.auth.uid) {
      throw new AppError('FORBIDDEN', KIT_MSG.notYours);
    }
  }
  return request.auth.uid;
}

/**
 * 401 unless the caller proved who they are (signed in, or re-entered their password) within the last
 * `maxAgeS` seconds: what a destructive action asks, whoever holds a still-valid token.
 */
export function requireRecentSignIn(request: FastifyRequest, maxAgeS = LIMITS.recentSignInSeconds): string {
  const uid = requireUser(request);
  const authTime = request.auth?.authTime;
  if (typeof authTime !== 'number' || Date.now() / 1000 - authTime > maxAgeS)
    throw new AppError('UNAUTHENTICATED', MSG.recentSignInRequired);
  return uid;
}

/** Checks a route's access level on the server. Admin is looked up with the auth service every time. */
export async function checkAccess(
  access: Access,
  request: FastifyRequest,
  clients: ServiceClients,
): Promise<void> {
  if (access === 'internal') {
    if (!request.internal) throw new AppError('NOT_FOUND', noRouteMessage(request.method, request.url));
    return;
  }
  if (access === 'public') return;
  const uid = requireUser(request);
  if (access === 'admin') await requireAdmin(request, clients, uid);
}

/**
 * 403 unless `uid` (default: the signed-in caller) has the admin role, looked up with the auth service on
 * every call: a revoked admin is out at once. A failed lookup counts as not admin.
 */
export async function requireAdmin(
  request: FastifyRequest,
  clients: ServiceClients,
  uid = requireUser(request),
): Promise<string> {
  let role: string | null = null;
  try {
    role = (await clients.call(internalGetRole, { params: { uid }, requestId: request.id })).role;
  } catch (err) {
    request.log.warn({ err }, 'role lookup failed; treating as not admin');
  }
  if (role !== 'admin') throw new AppError('FORBIDDEN', KIT_MSG.adminsOnly);
  return uid;
}
