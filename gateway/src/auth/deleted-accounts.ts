import { internalDeletedAccounts } from '@ct/contracts';
import { uidSha256, type AuthContext, type ServiceClients } from '@ct/service-kit';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The gateway's copy of the record of deleted accounts (auth.deleted_account, kept by the auth service):
 * checked on every request with no I/O. A token issued at or before its account's deletion is refused.
 * The copy is brought up to date at start, on a timer (the other gateway replicas' deletions) and before
 * this gateway answers a delete-account request, so the deleted token is refused from the answer on.
 */
export class DeletedAccounts {
  /** uid SHA-256 → when the account was deleted (ms). */
  private readonly deleted = new Map<string, number>();
  private last = 0;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private clients: ServiceClients | undefined;

  /** Tokens of the deleted uid this gateway still trusts from cache are dropped through this. */
  constructor(private readonly onDeleted: (uidSha256: string) => void) {}

  /** True when this identity's account was deleted after (or in the second) it signed in. */
  refuses(auth: AuthContext): boolean {
    if (this.deleted.size === 0) return false;
    const at = this.deleted.get(uidSha256(auth.uid));
    if (at === undefined) return false;
    // auth_time is whole seconds: a token from the second of the deletion is refused too.
    return auth.authTime === undefined || auth.authTime * 1000 <= at;
  }

  /** Fetches the deletions recorded since the last sync (one at a time: callers share a running one). */
  sync(): Promise<void> {
    this.syncing ??= this.pull().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async pull(): Promise<void> {
    if (!this.clients) return;
    for (;;) {
      const { items } = await this.clients.call(internalDeletedAccounts, { query: { after: this.last } });
      for (const d of items) {
        this.deleted.set(d.uidSha256, d.deletedAtMs);
        this.last = Math.max(this.last, d.seq);
        this.onDeleted(d.uidSha256);
      }
      if (items.length === 0) return;
    }
  }

  /** Starts syncing through the service clients every `everyMs`; a failed sync is logged and retried. */
  start(clients: ServiceClients, everyMs: number, log: FastifyBaseLogger): void {
    this.clients = clients;
    // Not awaited: the embedded run reaches the auth service through this app, which is not ready until
    // this returns; the distributed run's auth service may start after the gateway (the timer catches up).
    this.sync().catch((err: unknown) => log.warn({ err }, 'record of deleted accounts: sync failed'));
    this.timer = setInterval(() => {
      this.sync().catch((err: unknown) => log.warn({ err }, 'record of deleted accounts: sync failed'));
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
