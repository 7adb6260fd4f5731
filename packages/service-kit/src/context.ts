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
  /** When the person last proved who they are (the token's `auth_time`, seconds since the epoch). */
  authTime?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: import('@ct/contracts').Access;
    service?: ServiceName;
  }
  interface FastifyRequest {
    /** Set from the verified token by the gateway, or from trusted headers on an internal call. */
    auth: AuthContext | null;
    /** True when the call carries a valid signed internal header (service to service). */
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
