import type { Db } from '@ct/store';
import type { EventBus, QueueBackend } from '@ct/queue';
import type { ServiceName } from '@ct/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceClients } from './clients.ts';
import type { BaseConfig } from './config.ts';

/** Who is calling, from the verified ID token (never from anything else the client sends). */
export interface AuthContext {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: import('@ct/contracts').Access;
    service?: ServiceName;
  }
  interface FastifyRequest {
    /** Set from the verified token by the gateway, or from trusted headers on an internal call. */
    auth: AuthContext | null;
    /** True when the call carries the internal token (service to service). */
    internal: boolean;
    /** Why a presented token was refused (expired, revoked, wrong project...), for the 401 message. */
    authError: string | null;
  }
}

/** Everything a service plugin is given. The same in the embedded and the distributed run. */
export interface ServiceContext<C = BaseConfig> {
  service: ServiceName;
  config: C;
  db: Db;
  queue: QueueBackend;
  bus: EventBus;
  clients: ServiceClients;
  log: FastifyBaseLogger;
  /** Registers a cleanup step run on graceful shutdown, in reverse order. */
  onClose(fn: () => Promise<void> | void): void;
}

export const INTERNAL_HEADERS = {
  token: 'x-internal-token',
  uid: 'x-auth-uid',
  email: 'x-auth-email',
  emailVerified: 'x-auth-email-verified',
  name: 'x-auth-name',
} as const;

/** Headers that carry a verified identity on an internal call. */
export function identityHeaders(token: string, auth: AuthContext | null): Record<string, string> {
  const h: Record<string, string> = { [INTERNAL_HEADERS.token]: token };
  if (auth) {
    h[INTERNAL_HEADERS.uid] = auth.uid;
    if (auth.email) h[INTERNAL_HEADERS.email] = auth.email;
    h[INTERNAL_HEADERS.emailVerified] = String(auth.emailVerified);
    if (auth.name) h[INTERNAL_HEADERS.name] = encodeURIComponent(auth.name);
  }
  return h;
}
