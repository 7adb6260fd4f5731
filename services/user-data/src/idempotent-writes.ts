import { AppError } from '@ct/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UD_MSG } from './messages.ts';
import type { IdempotencyRepository } from './repositories/idempotency.ts';

/** The header a queued write carries its id in (web/src/offline/outbox.ts). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * A write sent twice with the same id is applied once. A phone queues writes made offline and sends each
 * with an id; a reply lost on a bad connection makes it send the write again. The first arrival claims the
 * id (a row), the write runs, and its reply is kept on the row; a repeat gets the kept reply and changes
 * nothing. A write refused or failed frees its id, so it can be tried again.
 */
export function idempotentWrites(scope: FastifyInstance, repo: IdempotencyRepository): void {
  const claimed = new WeakMap<FastifyRequest, { uid: string; key: string }>();
  scope.addHook('preHandler', async (request, reply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || request.method === 'GET') return;
    if (typeof key !== 'string' || !KEY.test(key))
      throw new AppError('VALIDATION_ERROR', UD_MSG.badIdempotencyKey);
    // Unsigned calls are refused by the route itself.
    const uid = request.auth?.uid;
    if (!uid) return;
    if (await repo.claim(uid, key, request.routeOptions.url ?? request.url)) {
      claimed.set(request, { uid, key });
      return;
    }
    const seen = await repo.find(uid, key);
    if (seen?.status == null) throw new AppError('CONFLICT', UD_MSG.writeInProgress);
    return reply.status(seen.status).header('idempotent-replay', 'true').send(seen.reply);
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const c = claimed.get(request);
    if (!c) return payload;
    claimed.delete(request);
    if (reply.statusCode < 300 && typeof payload === 'string') {
      await repo.complete(c.uid, c.key, reply.statusCode, JSON.parse(payload) as unknown);
    } else {
      await repo.release(c.uid, c.key);
    }
    return payload;
  });
}
