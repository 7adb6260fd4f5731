import Type, { type Static, type TObject, type TProperties } from 'typebox';
import { Value } from 'typebox/value';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const OptionalUrl = Type.Optional(Type.String({ pattern: '^(postgres(ql)?|redis|rediss|https?)://.+' }));

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
  /** Shared secret on service-to-service calls. Required when services run as separate processes. */
  INTERNAL_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  FIREBASE_PROJECT_ID: Type.String({ default: 'demo-college-tracker', minLength: 1 }),
  FIREBASE_AUTH_EMULATOR_HOST: Type.Optional(Type.String({ minLength: 3 })),
  AUTH_SERVICE_URL: OptionalUrl,
  COLLEGES_SERVICE_URL: OptionalUrl,
  USER_DATA_SERVICE_URL: OptionalUrl,
  ESSAYS_SERVICE_URL: OptionalUrl,
  ADMIN_SERVICE_URL: OptionalUrl,
  INGESTION_WORKER_URL: OptionalUrl,
});
export type BaseConfig = Static<typeof BaseConfig>;

/** The base variables plus a service's own. */
export function withBase<P extends TProperties>(props: P) {
  return Type.Object({ ...BaseConfig.properties, ...props });
}

/**
 * Parses configuration from the environment by schema: converts strings to numbers and booleans,
 * applies defaults, and reports every bad variable at once.
 */
export function parseConfig<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined> = process.env,
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
    if (!first) continue;
    const secret = /TOKEN|KEY|SECRET|PASSWORD/.test(key);
    const expected =
      'anyOf' in prop
        ? `one of ${(prop.anyOf as { const?: unknown }[]).map((o) => o.const).join(', ')}`
        : first.message;
    problems.push(`${key}: ${expected}${secret ? '' : ` (got "${String(raw[key])}")`}`);
  }
  if (problems.length) throw new ConfigError(problems);
  return value as Static<T>;
}

/** Like parseConfig, but prints the list of problems and exits, for process start-up. */
export function loadConfigOrExit<T extends TObject>(schema: T, env = process.env): Static<T> {
  try {
    return parseConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
