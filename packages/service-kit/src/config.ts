import { SERVICE_NAMES, serviceUrlVar, type ServiceUrlVar } from '@ct/contracts';
import Type, { type Static, type TObject, type TProperties } from 'typebox';
import { Value } from 'typebox/value';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** How to make a good secret, said with every refusal. */
export const MAKE_SECRET_HINT = 'make one with `openssl rand -hex 32`';

/**
 * A secret (signing key or bearer token): at least 32 characters, no placeholder, never echoed. Checked by
 * `parseConfig` with `weakSecretReason`.
 */
const SecretString = Type.String({ 'x-secret': true });

/** Words that mark a value copied from an example rather than generated. */
const PLACEHOLDER = /change-?me|example|secret|password|placeholder|your[-_]?(token|key)|dummy|todo/i;

/** Why a secret value is unfit (placeholder, too short, too little variety), or null when it is fine. */
export function weakSecretReason(value: string): string | null {
  if (PLACEHOLDER.test(value)) return 'is a placeholder, not a secret';
  if (value.length < 32) return `is too short (${value.length} characters; at least 32)`;
  if (new Set(value).size < 8 || /^(.{1,8})\1+$/.test(value)) return 'repeats a few characters';
  return null;
}

const OptionalUrl = Type.Optional(Type.String({ pattern: '^(postgres(ql)?|redis|rediss|https?)://.+' }));
/** A service's base URL, or its replicas' base URLs separated by commas (the caller spreads calls over them). */
const OptionalServiceUrls = Type.Optional(
  Type.String({ pattern: '^https?://[^\\s,]+(\\s*,\\s*https?://[^\\s,]+)*$' }),
);

/** Variables every process reads. Defaults make the embedded local run work with none set. */
export const BaseConfig = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /**
   * Request logs keep whole query strings (uids, college names, what students typed): for a debugging
   * session only. Off, a line names the query's parameters without their values.
   */
  LOG_FULL_URLS: Type.Boolean({ default: false }),
  /** A real Postgres server; without it, in-process PGlite persisted to DATA_DIR. */
  DATABASE_URL: OptionalUrl,
  DATA_DIR: Type.String({ default: '.data/pglite', minLength: 1 }),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  /** Redis for BullMQ; without it, the in-process queue. */
  REDIS_URL: OptionalUrl,
  QUEUE_PREFIX: Type.String({ default: 'ct', pattern: '^[A-Za-z0-9_-]+$' }),
  QUEUE_LOCK_MS: Type.Integer({ minimum: 1000, default: 30_000 }),
  /**
   * On SIGTERM, how long running jobs get to finish before they are handed back to the queue for another
   * worker; the process exits within this plus 5 s (keep it under the platform's termination grace).
   */
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 20_000 }),
  /**
   * Key that signs service-to-service calls (each call is signed for its method and URL, valid 60 s).
   * Required when services run as separate processes; the embedded run makes a random one.
   */
  INTERNAL_TOKEN: Type.Optional(SecretString),
  /** Bearer token a scraper must send to read `/metrics`; without it, `/metrics` is off. */
  METRICS_TOKEN: Type.Optional(SecretString),
  /**
   * Request lines: `sampled` writes every 4xx/5xx and error whole, samples the rest and counts every
   * request in a summary line a minute (`access-log.ts`); `full` writes a line for every request.
   */
  ACCESS_LOG: Type.Union([Type.Literal('sampled'), Type.Literal('full')], { default: 'sampled' }),
  FIREBASE_PROJECT_ID: Type.String({ default: 'demo-college-tracker', minLength: 1 }),
  /** The Auth emulator (accepts unsigned tokens): local runs only, refused with NODE_ENV=production. */
  FIREBASE_AUTH_EMULATOR_HOST: Type.Optional(Type.String({ minLength: 3 })),
  /**
   * Each service's base URL in the distributed run (AUTH_SERVICE_URL...), one per SERVICES entry; several,
   * comma-separated, reach that many replicas round robin, passing over one that is down (`ReplicaSet`).
   */
  ...(Object.fromEntries(SERVICE_NAMES.map((n) => [serviceUrlVar(n), OptionalServiceUrls])) as Record<
    ServiceUrlVar,
    typeof OptionalServiceUrls
  >),
});
export type BaseConfig = Static<typeof BaseConfig>;

/** The base variables plus a service's own. */
export function withBase<P extends TProperties>(props: P) {
  return Type.Object({ ...BaseConfig.properties, ...props });
}

/** A rule between variables, checked once each variable is valid: the problems it finds. */
export type ConfigRule<C> = (config: C) => string[];

/** Rules every process keeps, whatever it runs. */
export const BASE_RULES: ConfigRule<Partial<BaseConfig>>[] = [
  (c) =>
    c.NODE_ENV === 'production' && c.FIREBASE_AUTH_EMULATOR_HOST
      ? [
          'FIREBASE_AUTH_EMULATOR_HOST: must be empty when NODE_ENV=production (the Auth emulator accepts ' +
            'unsigned tokens, so anyone could sign in as anyone); unset it, or run with NODE_ENV=development locally',
        ]
      : [],
];

/** A process that owns a store must have a real Postgres server in production. */
export const STORE_RULE: ConfigRule<Partial<BaseConfig>> = (c) =>
  c.NODE_ENV === 'production' && !c.DATABASE_URL
    ? [
        'DATABASE_URL: is required when NODE_ENV=production (the embedded PGlite store is for local runs: ' +
          'one process, and not durable enough for real students)',
      ]
    : [];

/** A service on its own (the distributed run) shares its signing key with the others. */
export const SEPARATE_PROCESS_RULE: ConfigRule<Partial<BaseConfig>> = (c) =>
  c.INTERNAL_TOKEN
    ? []
    : [
        `INTERNAL_TOKEN: is required when a service runs on its own (the same value everywhere; ${MAKE_SECRET_HINT})`,
      ];

/**
 * Parses configuration from the environment by schema: converts strings to numbers and booleans,
 * applies defaults, checks secrets and the rules between variables, and reports every problem at once.
 */
export function parseConfig<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined> = process.env,
  rules: ConfigRule<Static<T>>[] = [],
): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const value = Value.Convert(schema, Value.Default(schema, raw)) as Record<string, unknown>;
  const problems: string[] = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const v = value[key];
    if (v === undefined) {
      if (schema.required?.includes(key)) problems.push(`${key}: is required`);
      continue;
    }
    const first = [...Value.Errors(prop, v)][0];
    if (!first) {
      const weak = (prop as { 'x-secret'?: boolean })['x-secret'] ? weakSecretReason(String(v)) : null;
      if (weak) problems.push(`${key}: ${weak}; ${MAKE_SECRET_HINT}`);
      continue;
    }
    // A value is not echoed when its name says it is secret, or when it is a URL with credentials in it.
    const secret = /TOKEN|KEY|SECRET|PASSWORD/.test(key) || /^[a-z]+:\/\/[^/]*@/i.test(String(raw[key]));
    const expected =
      'anyOf' in prop
        ? `one of ${(prop.anyOf as { const?: unknown }[]).map((o) => o.const).join(', ')}`
        : first.message;
    problems.push(`${key}: ${expected}${secret ? '' : ` (got "${String(raw[key])}")`}`);
  }
  // Rules between variables only make sense once each one is valid on its own.
  if (!problems.length)
    for (const rule of [...(BASE_RULES as ConfigRule<Static<T>>[]), ...rules])
      problems.push(...rule(value as Static<T>));
  if (problems.length) throw new ConfigError(problems);
  return value as Static<T>;
}

/** Like parseConfig, but prints the list of problems and exits, for process start-up. */
export function loadConfigOrExit<T extends TObject>(
  schema: T,
  env = process.env,
  rules: ConfigRule<Static<T>>[] = [],
): Static<T> {
  try {
    return parseConfig(schema, env, rules);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
