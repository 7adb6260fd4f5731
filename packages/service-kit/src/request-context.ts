import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

interface RequestContext {
  reqId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * The request id of the request (or job) being handled, if any. Service-to-service calls forward it as
 * `x-request-id`, so one id follows a user's action from the gateway through every service into jobs.
 */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.reqId;
}

/** Runs `fn` with `reqId` as the current request id (e.g. a job handler, with the id from the job data). */
export function runWithRequestId<T>(reqId: string | undefined, fn: () => T): T {
  return reqId ? storage.run({ reqId }, fn) : fn();
}

/** Makes `request.id` the current request id for everything a request's handlers do. */
export function installRequestContext(app: FastifyInstance): void {
  // Callback style on purpose: the rest of the request lifecycle runs inside `storage.run`.
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run({ reqId: request.id }, done);
  });
}
