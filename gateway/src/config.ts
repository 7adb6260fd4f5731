import Type, { type Static } from 'typebox';
import { withBase } from '@ct/service-kit';

/**
 * Gateway configuration. Variables marked "browser" are served at /api/public-config and are the only
 * configuration the web client ever sees.
 */
export const GatewayConfig = withBase({
  /** `embedded`: every service in this process; `distributed`: proxy to service URLs. */
  GATEWAY_MODE: Type.Union([Type.Literal('embedded'), Type.Literal('distributed')], { default: 'embedded' }),
  /** Built web app to serve at `/` (SPA fallback to index.html). */
  WEB_DIST: Type.String({ default: 'web/dist' }),
  RATE_LIMIT_MAX: Type.Integer({
    minimum: 1,
    default: 3000,
    description: 'Requests per minute per user (or IP)',
  }),
  /** How long a verified token's user record (disabled, revoked) is trusted before it is looked up again. */
  AUTH_USER_CACHE_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /** Run the ingestion worker inside the embedded process. */
  RUN_WORKER: Type.Boolean({ default: true }),
  // browser
  PRODUCT_NAME: Type.String({ default: 'College Ready', minLength: 1 }),
  FIREBASE_API_KEY: Type.String({ default: 'demo-api-key', minLength: 1 }),
  FIREBASE_AUTH_DOMAIN: Type.Optional(Type.String()),
  /** Emulator URL for the browser (defaults to http:// + FIREBASE_AUTH_EMULATOR_HOST). */
  FIREBASE_AUTH_EMULATOR_URL: Type.Optional(Type.String()),
  SUPPORT_EMAIL: Type.String({ default: 'support@collegeready.example', minLength: 3 }),
  FAQ_EMAIL: Type.String({ default: 'help@collegeready.example', minLength: 3 }),
  DONATE_URL: Type.String({ default: 'https://example.org/donate/college-ready', minLength: 8 }),
  BUILDER_URL: Type.String({ default: 'https://example.org/about-the-builder', minLength: 8 }),
});
export type GatewayConfig = Static<typeof GatewayConfig>;
