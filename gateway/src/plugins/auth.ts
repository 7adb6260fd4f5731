import { deleteAccount } from '@ct/contracts';
import { requireUser, type AuthContext, type ReadyCheck, type ServiceClients } from '@ct/service-kit';
import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import { DeletedAccounts } from '../auth/deleted-accounts.ts';
import { TokenVerifier } from '../auth/verifier.ts';
import type { GatewayConfig } from '../config.ts';
import { GATEWAY_MSG } from '../messages.ts';

/** ID-token verification at the edge: every request's bearer token, checked with Firebase Auth. */
export function gatewayAuth(config: GatewayConfig) {
  const verifier = new TokenVerifier({
    projectId: config.FIREBASE_PROJECT_ID,
    emulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST,
    userCacheMs: config.AUTH_USER_CACHE_MS,
  });
  const deleted = new DeletedAccounts((hash) => verifier.forget(hash));
  /** A deleted account's token is refused at once, however it was verified (cached or fresh). */
  const checkDeleted = (result: AuthContext | { error: string }) =>
    !('error' in result) && deleted.refuses(result) ? { error: GATEWAY_MSG.accountGone } : result;
  return {
    /**
     * Reads the bearer token of each request (the base app's identity hook calls it): from the verifier's
     * cache without a promise when it can, else verified with Firebase Auth.
     */
    verify: (request: FastifyRequest) => {
      const h = request.headers.authorization;
      if (!h) return null;
      const m = /^Bearer\s+(\S+)$/i.exec(h);
      if (!m?.[1]) return { error: GATEWAY_MSG.badAuthHeader };
      const cached = verifier.cached(m[1]);
      return cached ? checkDeleted(cached) : verifier.verify(m[1]).then(checkDeleted);
    },
    /**
     * Why a session started by `uid`'s sign-in at `authTime` (seconds) must end (account disabled,
     * revoked, deleted or gone), or null: the bearer path's checks, for a session cookie.
     */
    accountRefusal: async (uid: string, authTime: number): Promise<string | null> => {
      const auth = { uid, email: null, emailVerified: true, name: null, authTime };
      if (deleted.refuses(auth)) return GATEWAY_MSG.accountGone;
      return verifier.accountRefusal(uid, authTime);
    },
    /** The record of deleted accounts every request is checked against. */
    deleted,
    readyCheck: { name: 'auth', check: () => verifier.ping() } as ReadyCheck,
    close: () => {
      deleted.stop();
      return verifier.close();
    },
  };
}

/**
 * Deletion is final at once: the gateway that answers a delete-account request brings its record of
 * deleted accounts up to date before the answer leaves, so the deleted token is refused from then on;
 * the other replicas catch up within DELETED_ACCOUNTS_SYNC_MS. Synced first when the gateway is ready.
 */
export function refuseDeletedAccounts(
  app: FastifyInstance,
  deleted: DeletedAccounts,
  clients: ServiceClients,
  everyMs: number,
): void {
  const path = `/api${deleteAccount.path}`;
  app.addHook('onReady', async () => deleted.start(clients, everyMs, app.log));
  const syncAfterDeletion: onSendHookHandler = (request, _reply, payload, done) => {
    if (!request.auth) return done(null, payload);
    deleted
      .sync()
      .catch((err: unknown) => {
        request.log.error({ err }, 'record of deleted accounts: sync after a deletion failed');
      })
      .then(() => done(null, payload), done);
  };
  // On the delete-account route only (both runs register it after this), not a hook every request runs
  // to compare its route.
  app.addHook('onRoute', (route) => {
    if (route.url !== path) return;
    const own = route.onSend;
    route.onSend = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), syncAfterDeletion];
  });
}

/**
 * Who the gateway thinks is calling: handy for clients and support, and the benchmark's authenticated
 * route with no I/O (it measures what the gateway itself adds).
 */
export default async function authRoutes(app: FastifyInstance): Promise<void> {
  // After a sign-out the web app calls this so the browser forgets what it cached of the app's answers
  // (issue 50.5): the next student on a shared computer finds none of them. No token: the session is over.
  app.post(
    '/api/signed-out',
    {
      schema: {
        tags: ['session'],
        summary: 'Tells the browser to clear its HTTP cache of this site after a sign-out (Clear-Site-Data)',
        security: [],
      },
    },
    async (_request, reply) => reply.header('clear-site-data', '"cache"').code(204).send(),
  );
  app.get(
    '/api/me',
    { schema: { tags: ['session'], summary: 'The signed-in identity as verified by the gateway' } },
    async (request) => {
      const uid = requireUser(request);
      const a = request.auth!;
      return {
        success: true,
        message: GATEWAY_MSG.signedIn,
        data: { uid, email: a.email, name: a.name, emailVerified: a.emailVerified },
      };
    },
  );
}
