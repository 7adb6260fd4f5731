import type { IncomingMessage, ServerResponse } from 'node:http';
import { addRequestStep } from '@ct/service-kit';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { GatewayConfig } from '../config.ts';

/**
 * Helmet's headers, computed once at start-up instead of on every request (helmet re-parses its CSP
 * directives per call, which was a measurable share of the gateway's hot path), then set on every reply.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failed: unknown;
  helmet(options)({ headers: {} } as IncomingMessage, res, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

/** The origin the browser reaches the Auth emulator at, when there is one. */
export function emulatorOrigin(c: GatewayConfig): string | null {
  // FIREBASE_AUTH_EMULATOR_URL when set (in containers the gateway's host name for it,
  // FIREBASE_AUTH_EMULATOR_HOST, means nothing to the browser).
  if (c.FIREBASE_AUTH_EMULATOR_URL)
    return URL.canParse(c.FIREBASE_AUTH_EMULATOR_URL) ? new URL(c.FIREBASE_AUTH_EMULATOR_URL).origin : null;
  return c.FIREBASE_AUTH_EMULATOR_HOST ? `http://${c.FIREBASE_AUTH_EMULATOR_HOST}` : null;
}

/** Security headers (CSP, COOP and helmet's others) on every reply. */
export default fp<{ config: GatewayConfig }>(async (app, { config }) => {
  const emulator = emulatorOrigin(config);
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://apis.google.com', 'https://www.gstatic.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: [
          "'self'",
          'https://*.googleapis.com',
          'https://securetoken.googleapis.com',
          'https://identitytoolkit.googleapis.com',
          ...(emulator ? [emulator] : []),
        ],
        frameSrc: ["'self'", 'https://*.firebaseapp.com', 'https://accounts.google.com'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  const entries = Object.entries(headers);
  // A step of the app's one onRequest hook (service-kit's request steps): on every request.
  addRequestStep(app, (_request, reply) => {
    for (const [name, value] of entries) reply.header(name, value);
  });
});
