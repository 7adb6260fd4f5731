import { AppError } from '@ct/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
  /** Claims the write's id, or answers a repeat with the kept reply. */
  const claim = async (request: FastifyRequest, reply: FastifyReply, key: string): Promise<void> => {
    if (!KEY.test(key)) throw new AppError('VALIDATION_ERROR', UD_MSG.badIdempotencyKey);
    // Unsigned calls are refused by the route itself.
    const uid = request.auth?.uid;
    if (!uid) return;
    if (await repo.claim(uid, key, request.routeOptions.url ?? request.url)) {
      claimed.set(request, { uid, key });
      return;
    }
    const seen = await repo.find(uid, key);
    if (seen?.status == null) throw new AppError('CONFLICT', UD_MSG.writeInProgress);
    reply.status(seen.status).header('idempotent-replay', 'true').send(seen.reply);
  };
  // Callback style: these hooks see every request of the service, and most carry no write id (every
  // read): an async hook would cost each of them a promise.
  scope.addHook('preHandler', (request, reply, done) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || request.method === 'GET') return done();
    if (typeof key !== 'string') return done(new AppError('VALIDATION_ERROR', UD_MSG.badIdempotencyKey));
    claim(request, reply, key).then(
      () => {
        if (!reply.sent) done();
      },
      (err: unknown) => done(err as Error),
    );
  });
  scope.addHook('onSend', (request, reply, payload, done) => {
    const c = claimed.get(request);
    if (!c) return done(null, payload);
    claimed.delete(request);
    let settled: Promise<void>;
    try {
      settled =
        reply.statusCode < 300 && typeof payload === 'string'
          ? repo.complete(c.uid, c.key, reply.statusCode, JSON.parse(payload) as unknown)
          : repo.release(c.uid, c.key);
    } catch (err) {
      return done(err as Error);
    }
    settled.then(
      () => done(null, payload),
      (err: unknown) => done(err as Error),
    );
  });
}
