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

/**
 * What a JSON answer under `/api` needs (ADR 0100, the OWASP REST Security cheat sheet): it is never
 * rendered as a page, so a document's CSP, COOP, frame and referrer headers protect nothing there. Private
 * by default: `no-store` keeps a student's answers out of the browser's disk cache, where the next person
 * on a shared computer could read them without a token (issue 50.5); a route that may be kept sets its own
 * `cache-control`, which replaces this one.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

/** HSTS for an API answer, sent only where the request came over TLS (as the proxy in front says). */
const API_HSTS = 'max-age=31536000; includeSubDomains';

/**
 * True for the answers that get the API set: everything under `/api` but the API's documentation pages
 * (HTML, rendered by a browser). The SPA, `/shared/<token>`, the ops pages and assets get the full set.
 */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

/** Security headers on every reply: the document set on pages and assets, the API set on JSON answers. */
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
  const documentHeaders = Object.entries(headers);
  const apiHeaders = Object.entries(API_HEADERS);
  // A step of the app's one onRequest hook (service-kit's request steps): on every request.
  addRequestStep(app, (request, reply) => {
    if (isApiPath(request.url)) {
      for (const [name, value] of apiHeaders) reply.header(name, value);
      if (request.protocol === 'https') reply.header('strict-transport-security', API_HSTS);
    } else for (const [name, value] of documentHeaders) reply.header(name, value);
  });
});
