import type { RouteDef, RouteReply, ServiceName } from '@ct/contracts';
import { AppError, isNoRouteMessage, type CallOptions, type ServiceContext } from '@ct/service-kit';
import { ADMIN_MSG, OWNER_NAMES } from '../messages.ts';

/** The 503 the admin service answers instead of a figure it could not get. */
export function ownersUnavailable(services: ServiceName[]): AppError {
  const names = [...new Set(services)].map((s) => `${OWNER_NAMES[s] ?? s} service`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return new AppError('DEPENDENCY_UNAVAILABLE', ADMIN_MSG.ownersUnavailable(list ?? '', names.length > 1));
}

/**
 * An owner's error the admin may see as is, rather than "unavailable": a 400 (the owner refused input we
 * forwarded, so it is the caller's input) and the statuses a route names (e.g. 404/409 on a retry).
 */
function isMeaningful(err: unknown, passThrough: readonly number[]): err is AppError {
  return (
    err instanceof AppError &&
    (err.statusCode === 400 || passThrough.includes(err.statusCode)) &&
    // The embedded run answers a route nobody registered with 404 "No route for ...": that is an owner
    // that is not there, not a missing record.
    !isNoRouteMessage(err.message)
  );
}

export class OwnerCallError extends Error {
  constructor(
    readonly service: ServiceName,
    override readonly cause: unknown,
  ) {
    super(`${service} did not answer`);
  }
}

/**
 * Asks an owning service through its internal API. Anything but a success (down, not built yet, an
 * unexpected reply) becomes an OwnerCallError, so the route can say which owner failed; statuses in
 * `passThrough` reach the admin with the owner's own message.
 */
export async function askOwner<R extends RouteDef>(
  ctx: ServiceContext,
  route: R,
  opts: CallOptions<R> = {},
  passThrough: readonly number[] = [],
): Promise<RouteReply<R>> {
  try {
    return await ctx.clients.call(route, opts);
  } catch (err) {
    if (isMeaningful(err, passThrough)) throw err;
    ctx.log.warn({ err, owner: route.service, route: route.path }, 'owning service did not answer');
    throw new OwnerCallError(route.service, err);
  }
}

/** Runs owner calls together; if any fails, one 503 names every owner that did. */
export async function fromOwners<T extends readonly unknown[]>(calls: {
  [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const settled = await Promise.allSettled(calls);
  const failed: ServiceName[] = [];
  for (const s of settled) {
    if (s.status === 'rejected') {
      if (s.reason instanceof OwnerCallError) failed.push(s.reason.service);
      else throw s.reason;
    }
  }
  if (failed.length) throw ownersUnavailable(failed);
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
