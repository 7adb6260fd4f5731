import { isIP } from 'node:net';
import Type, { type Static } from 'typebox';
import { ROUTES, serviceUrlVar } from '@ct/contracts';
import { MAKE_SECRET_HINT, STORE_RULE, withBase, type ConfigRule } from '@ct/service-kit';

/**
 * Gateway configuration. Variables marked "browser" are served at /api/public-config and are the only
 * configuration the web client ever sees.
 */
export const GatewayConfig = withBase({
  /** `embedded`: every service in this process; `distributed`: proxy to service URLs. */
  GATEWAY_MODE: Type.Union([Type.Literal('embedded'), Type.Literal('distributed')], { default: 'embedded' }),
  /** Built web app to serve at `/` (SPA fallback to index.html). */
  WEB_DIST: Type.String({ default: 'web/dist' }),
  /**
   * Which proxies in front of the gateway may say who the client is (X-Forwarded-For): a comma-separated
   * list of their addresses or CIDRs (`loopback`, `linklocal`, `uniquelocal` name the usual ranges). Empty:
   * none, the socket's address is the client (the embedded run on a laptop). Never a hop count or `true`:
   * those would believe a client that connects directly and writes the header itself.
   */
  TRUST_PROXY: Type.Optional(Type.String()),
  /**
   * Signs the queue dashboard's session cookie. Required in the distributed run and in production (the
   * same value on every gateway replica); the embedded run makes a random one.
   */
  OPS_SESSION_SECRET: Type.Optional(Type.String({ 'x-secret': true })),
  RATE_LIMIT_MAX: Type.Integer({
    minimum: 1,
    default: 3000,
    description: 'Requests per minute per user (or IP)',
  }),
  /** How long a verified token's user record (disabled, revoked) is trusted before it is looked up again. */
  AUTH_USER_CACHE_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /**
   * How often the gateway fetches accounts deleted through another gateway replica (each gateway knows
   * its own deletions at once). Tokens of a deleted account are refused from then on.
   */
  DELETED_ACCOUNTS_SYNC_MS: Type.Integer({ minimum: 100, default: 2000 }),
  /**
   * How long a client may take to send a whole request (headers and body); a slower one gets 408 and its
   * connection closed, so slow bodies cannot hold connections open for ever.
   */
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: 30_000 }),
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

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY as Fastify's `trustProxy`: false (none) or the proxies' addresses and CIDRs; null if invalid. */
export function trustProxySetting(value: string | undefined): false | string[] | null {
  const v = (value ?? '').trim();
  if (!v || v === 'false') return false;
  const list = v.split(',').map((x) => x.trim());
  const valid = list.every((x) => {
    if (PROXY_NAMES.has(x)) return true;
    const [ip, bits, ...rest] = x.split('/');
    if (rest.length || !ip || !isIP(ip)) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(ip) === 4 ? 32 : 128));
  });
  return valid ? list : null;
}

/** The services the distributed gateway reaches: every service of the route table. */
const FORWARDED_SERVICES = [...new Set(ROUTES.map((r) => r.service))];

/** Rules between the gateway's variables: what each mode and environment must have. */
export const GATEWAY_RULES: ConfigRule<GatewayConfig>[] = [
  (c) =>
    c.GATEWAY_MODE === 'distributed'
      ? FORWARDED_SERVICES.filter((s) => !c[serviceUrlVar(s)]).map(
          (s) =>
            `${serviceUrlVar(s)}: is required in the distributed run (the base URL of the ${s} service, such as http://${s}:8080)`,
        )
      : [],
  (c) => (c.GATEWAY_MODE === 'embedded' ? STORE_RULE(c) : []),
  (c) =>
    c.GATEWAY_MODE === 'distributed' && !c.INTERNAL_TOKEN
      ? [
          `INTERNAL_TOKEN: is required in the distributed run (the same value as the services'; ${MAKE_SECRET_HINT})`,
        ]
      : [],
  (c) =>
    (c.GATEWAY_MODE === 'distributed' || c.NODE_ENV === 'production') && !c.OPS_SESSION_SECRET
      ? [
          `OPS_SESSION_SECRET: is required in the distributed run and in production (the same value on every gateway; ${MAKE_SECRET_HINT})`,
        ]
      : [],
  (c) =>
    trustProxySetting(c.TRUST_PROXY) === null
      ? [
          "TRUST_PROXY: must be empty or a comma-separated list of the proxies' addresses / CIDRs, such as " +
            `10.0.0.0/8 or uniquelocal (got "${c.TRUST_PROXY}"); "true" and hop counts are refused: they would ` +
            'believe a client that connects directly and writes X-Forwarded-For itself',
        ]
      : [],
];
