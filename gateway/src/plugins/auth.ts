import { requireUser, type ReadyCheck } from '@ct/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
      return verifier.cached(m[1]) ?? verifier.verify(m[1]);
    },
    readyCheck: { name: 'auth', check: () => verifier.ping() } as ReadyCheck,
    close: () => verifier.close(),
  };
}

/**
 * Who the gateway thinks is calling: handy for clients and support, and the benchmark's authenticated
 * route with no I/O (it measures what the gateway itself adds).
 */
export default async function authRoutes(app: FastifyInstance): Promise<void> {
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
