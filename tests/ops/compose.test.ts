// docker-compose.yml and .env.example, checked against the code: no container engine runs here, so the
// file is proven by what it must agree with (processes, ports, config schemas, health routes).
import webpush from 'web-push';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv } from 'ajv';
import { DCLinter } from 'dclint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  LIBRARY_ENV,
  processSpecs,
  requiredInContainers,
  rel,
  SERVICE_NAMES,
  type ProcessSpec,
} from './lib/sources.ts';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  healthcheck?: { test: string[]; interval?: string; start_period?: string };
  depends_on?: Record<string, { condition: string; required?: boolean }>;
  profiles?: string[];
  stop_grace_period?: string;
  read_only?: boolean;
  cap_drop?: string[];
  command?: string[];
  volumes?: string[];
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const raw = fs.readFileSync(rel('docker-compose.yml'), 'utf8');
const rawDev = fs.readFileSync(rel('docker-compose.dev.yml'), 'utf8');
const envExample = fs.readFileSync(rel('.env.example'), 'utf8');
let compose: Compose;
let composeDev: Compose;
const specs = processSpecs();

/** What `docker compose` would see for a value after interpolation (`${X}`, `${X:-default}`, `${X:?why}`). */
function interpolate(v: unknown, env: Record<string, string>): string {
  return String(v).replace(
    /\$\{([A-Z0-9_]+)(?:(:?)([-?])([^}]*))?\}/g,
    (_, name: string, colon: string, op: string, arg: string) => {
      const value = env[name];
      const missing = value === undefined || (colon === ':' && value === '');
      return op === '-' && missing ? arg : (value ?? '');
    },
  );
}
const exampleEnv = Object.fromEntries(
  envExample
    .split('\n')
    .filter((l) => /^[A-Z0-9_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);
/** Variables compose refuses to run without (`${X:?...}`): the secrets a user makes. */
const requiredVars = new Set([...raw.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]!));
/** .env.example as a user fills it in, following its comments (`openssl rand -hex 32` per secret). */
/** The push keys an operator makes with `npx web-push generate-vapid-keys` (not random hex). */
const vapid = webpush.generateVAPIDKeys();
const filledEnv: Record<string, string> = {
  ...exampleEnv,
  ...Object.fromEntries([...requiredVars].map((n) => [n, randomBytes(32).toString('hex')])),
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
};

/** What a process's config must satisfy beyond its schema (the rules its server.ts applies at start). */
async function rulesFor(name: string) {
  const { SEPARATE_PROCESS_RULE, STORE_RULE } = await import('@ct/service-kit');
  const { GATEWAY_RULES } = await import('@ct/gateway/config');
  return name === 'gateway' ? GATEWAY_RULES : [SEPARATE_PROCESS_RULE, STORE_RULE];
}
const seconds = (d: string | undefined) => {
  const m = /^(\d+)(ms|s|m)$/.exec(d ?? '');
  if (!m) return 10; // compose's default stop grace period
  return Number(m[1]) * ({ ms: 0.001, s: 1, m: 60 } as const)[m[2] as 'ms' | 's' | 'm'];
};

/** A validator for the current Compose Specification schema, as dclint ships it (depends_on `required`...). */
function composeValidator() {
  const schemaFile = path.join(
    path.dirname(createRequire(import.meta.url).resolve('dclint/package.json')),
    'schemas/compose.schema.json',
  );
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
  // Written as https://json-schema.org/draft-07/schema, which Ajv (draft-07 by default) does not know by that name.
  expect(schema.$schema).toMatch(/draft-07/);
  delete schema.$schema;
  return ajv.compile(schema);
}

beforeAll(() => {
  compose = parse(raw, { merge: true }) as Compose;
  composeDev = parse(rawDev, { merge: true }) as Compose;
});

describe('docker-compose.yml', () => {
  it('is valid YAML and valid against the Compose Specification schema', () => {
    const validate = composeValidator();
    validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  });

  it('passes the Compose linter (dclint) with only the key-ordering style rules off', async () => {
    const linter = new DCLinter({
      rules: {
        // Order by meaning (infrastructure first, then services as in stack.ts), not alphabetically.
        'service-keys-order': 0,
        'services-alphabetical-order': 0,
        'top-level-properties-order': 0,
        'service-dependencies-alphabetical-order': 0,
      },
      quiet: false,
      debug: false,
      exclude: [],
    });
    const results = linter.lintFiles([rel('docker-compose.yml')], false);
    const problems = results.flatMap((r) => r.messages);
    expect(problems, await linter.formatResults(results, 'stylish')).toEqual([]);
  });

  it('has one entry per process of the distributed run and per service of the route table', () => {
    for (const p of specs)
      expect(Object.keys(compose.services), `compose entry for ${p.name}`).toContain(p.name);
    for (const s of SERVICE_NAMES) expect(Object.keys(compose.services)).toContain(s);
    // Nothing else but the infrastructure.
    const known = new Set([...specs.map((p) => p.name), 'postgres', 'redis', 'auth-emulator']);
    expect(Object.keys(compose.services).filter((s) => !known.has(s))).toEqual([]);
  });

  it.each(specs.map((p) => [p.name, p] as const))(
    '%s: built from its workspace by the shared Dockerfile',
    (_, p) => {
      const s = compose.services[p.name]!;
      expect(s.build?.dockerfile).toBe('infra/Dockerfile');
      if (p.name === 'gateway') expect(s.build?.target).toBe('gateway');
      else {
        expect(s.build?.target).toBe('service');
        expect(s.build?.args?.WORKSPACE).toBe(p.workspace);
        expect(fs.existsSync(rel(p.workspace, 'package.json'))).toBe(true);
      }
    },
  );

  it.each(specs.map((p) => [p.name, p] as const))(
    '%s: every variable it is given is one its config schema reads, and nothing it needs is missing',
    (_, p: ProcessSpec) => {
      // With the development file's additions (the emulator settings live only there).
      const env = { ...compose.services[p.name]!.environment, ...composeDev.services[p.name]?.environment };
      const names = Object.keys(env);
      const unread = names.filter((n) => !p.configKeys.has(n) && !LIBRARY_ENV.has(n));
      expect(unread, `${p.name} is given variables its config does not read`).toEqual([]);
      for (const n of requiredInContainers(p)) expect(names, `${p.name} needs ${n}`).toContain(n);
      // Its own settings (provider keys, limits...) must be settable from .env.
      // USER_DATA_CLOCK is a test's fixed "now", ignored in production: never a container's setting.
      const embeddedOnly = new Set(['RUN_WORKER', 'DATA_DIR', 'USER_DATA_CLOCK']);
      const own = [...p.ownKeys].filter((k) => !embeddedOnly.has(k));
      expect(
        own.filter((k) => !names.includes(k)),
        `${p.name}: own settings missing from compose`,
      ).toEqual([]);
    },
  );

  it.each(specs.map((p) => [p.name, p] as const))(
    '%s: listens on its port from scripts/lib/stack.ts and reaches the others by their ports',
    (_, p) => {
      const env = compose.services[p.name]!.environment!;
      expect(Number(env.PORT)).toBe(p.port);
      for (const other of specs) {
        if (!other.urlVar || !(other.urlVar in env)) continue;
        expect(env[other.urlVar]).toBe(`http://${other.name}:${other.port}`);
      }
      if (p.name === 'gateway') {
        expect(env.GATEWAY_MODE).toBe('distributed');
        expect(compose.services.gateway!.ports).toEqual(['127.0.0.1:${GATEWAY_PORT:-8080}:8080']);
      } else {
        // Only the gateway is published; the worker must stay scalable (no fixed host port).
        expect(compose.services[p.name]!.ports ?? []).toEqual([]);
      }
    },
  );

  it.each(specs.map((p) => [p.name, p] as const))(
    '%s: health check asks its readiness route on its port, and it waits for what it needs',
    (_, p) => {
      const s = compose.services[p.name]!;
      expect(s.healthcheck?.test).toEqual(['CMD', 'node', '/app/healthcheck.mjs', p.health.ready]);
      const deps = s.depends_on ?? {};
      for (const d of Object.values(deps)) expect(d.condition).toBe('service_healthy');
      if (p.name === 'gateway') {
        for (const other of specs.filter((x) => x.name !== 'gateway'))
          expect(Object.keys(deps), `gateway waits for ${other.name}`).toContain(other.name);
        expect(deps['auth-emulator']).toEqual({ condition: 'service_healthy', required: false });
      } else {
        expect(Object.keys(deps)).toEqual(expect.arrayContaining(['postgres', 'redis']));
      }
      for (const d of Object.keys(deps))
        expect(compose.services[d], `${p.name} depends on ${d}`).toBeDefined();
    },
  );

  it.each(specs.map((p) => [p.name, p] as const))(
    '%s: runs locked down and is given longer to stop than its drain takes',
    (_, p) => {
      const s = compose.services[p.name]!;
      expect(s.read_only).toBe(true);
      expect(s.cap_drop).toEqual(['ALL']);
      const drainMs = Number(interpolate(s.environment!.SHUTDOWN_DRAIN_MS, exampleEnv));
      expect(drainMs).toBeGreaterThan(0);
      // onShutdown exits at most 5 s after the drain; Docker sends SIGKILL after stop_grace_period.
      expect(seconds(s.stop_grace_period)).toBeGreaterThanOrEqual(drainMs / 1000 + 5);
    },
  );

  it('keeps data in named volumes and gives Redis the eviction policy BullMQ needs', () => {
    expect(compose.services.postgres!.volumes).toEqual(['pgdata:/var/lib/postgresql/data']);
    expect(compose.services.redis!.volumes).toEqual(['redisdata:/data']);
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual(['pgdata', 'redisdata']);
    expect(compose.services.redis!.command?.join(' ')).toContain('--maxmemory-policy noeviction');
    expect(compose.services.postgres!.healthcheck).toBeDefined();
    expect(compose.services.redis!.healthcheck).toBeDefined();
  });

  it('runs the Auth emulator only under the dev profile', () => {
    expect(compose.services['auth-emulator']!.profiles).toEqual(['dev']);
    for (const p of specs) expect(compose.services[p.name]!.profiles).toBeUndefined();
  });

  it('never points a process at the Auth emulator, and requires every secret (no default, no placeholder)', () => {
    for (const p of specs) {
      const env = compose.services[p.name]!.environment ?? {};
      expect(env.FIREBASE_AUTH_EMULATOR_HOST, p.name).toBeUndefined();
      expect(env.FIREBASE_AUTH_EMULATOR_URL, p.name).toBeUndefined();
      expect(env.NODE_ENV, p.name).toBe('production');
      expect(String(env.INTERNAL_TOKEN)).toMatch(/^\$\{INTERNAL_TOKEN:\?.*openssl rand -hex 32.*\}$/);
    }
    expect(String(compose.services.gateway!.environment!.OPS_SESSION_SECRET)).toMatch(
      /^\$\{OPS_SESSION_SECRET:\?.*openssl rand -hex 32.*\}$/,
    );
    expect([...requiredVars].sort()).toEqual([
      'INTERNAL_TOKEN',
      'OPS_SESSION_SECRET',
      'POSTGRES_PASSWORD',
      'VAPID_PRIVATE_KEY',
      'VAPID_PUBLIC_KEY',
    ]);
  });

  it('passes every process its config, rules included, once the secrets are filled in (production)', async () => {
    const { parseConfig } = await import('@ct/service-kit');
    const { GatewayConfig } = await import('@ct/gateway/config');
    const { MODULES } = await import('@ct/gateway/modules');
    for (const p of specs) {
      const env = Object.fromEntries(
        Object.entries(compose.services[p.name]!.environment ?? {}).map(([k, v]) => [
          k,
          interpolate(v, filledEnv),
        ]),
      );
      const schema = p.name === 'gateway' ? GatewayConfig : MODULES.find((m) => m.name === p.name)!.config;
      const rules = (await rulesFor(p.name)) as never;
      expect(() => parseConfig(schema, env, rules), p.name).not.toThrow();
    }
  });
});

describe('docker-compose.dev.yml (local development with the Auth emulator)', () => {
  it('is valid Compose and only adds settings to the services of docker-compose.yml', () => {
    const validate = composeValidator();
    validate(composeDev);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    for (const [name, s] of Object.entries(composeDev.services)) {
      expect(compose.services[name], name).toBeDefined();
      expect(Object.keys(s), name).toEqual(['environment']);
    }
  });

  it('runs every process with NODE_ENV=development, the ones that talk to Firebase against the emulator', async () => {
    const { parseConfig } = await import('@ct/service-kit');
    const { GatewayConfig } = await import('@ct/gateway/config');
    const { MODULES } = await import('@ct/gateway/modules');
    for (const p of specs) {
      const merged = {
        ...compose.services[p.name]!.environment,
        ...composeDev.services[p.name]?.environment,
      };
      const env = Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, interpolate(v, filledEnv)]));
      expect(env.NODE_ENV, p.name).toBe('development');
      if (p.name === 'gateway' || p.name === 'auth')
        expect(env.FIREBASE_AUTH_EMULATOR_HOST, p.name).toBe('auth-emulator:9099');
      const schema = p.name === 'gateway' ? GatewayConfig : MODULES.find((m) => m.name === p.name)!.config;
      const rules = (await rulesFor(p.name)) as never;
      expect(() => parseConfig(schema, env, rules), p.name).not.toThrow();
    }
  });

  it('would be refused if the emulator host reached a production process', async () => {
    const { parseConfig } = await import('@ct/service-kit');
    const { GatewayConfig } = await import('@ct/gateway/config');
    const env = Object.fromEntries(
      Object.entries(compose.services.gateway!.environment ?? {}).map(([k, v]) => [
        k,
        interpolate(v, filledEnv),
      ]),
    );
    expect(() =>
      parseConfig(GatewayConfig, { ...env, FIREBASE_AUTH_EMULATOR_HOST: 'auth-emulator:9099' }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST: must be empty when NODE_ENV=production/);
  });
});

describe('.env.example', () => {
  const used = new Set([...`${raw}${rawDev}`.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!));

  it('defines every variable docker-compose.yml reads, and nothing it does not', () => {
    expect([...used].filter((n) => !(n in exampleEnv))).toEqual([]);
    expect(Object.keys(exampleEnv).filter((n) => !used.has(n))).toEqual([]);
  });

  it('holds no secrets and no placeholder a deployment could keep: every secret is empty, with how to make one', () => {
    for (const [k, v] of Object.entries(exampleEnv)) {
      if (/KEY|SECRET|TOKEN|PASSWORD/.test(k) && k !== 'FIREBASE_API_KEY')
        expect(v, `${k} must be empty`).toBe('');
    }
    for (const n of requiredVars) expect(exampleEnv[n], n).toBe('');
    expect(envExample).toContain('openssl rand -hex 32');
    // Development-only values are empty too: production never inherits the emulator from a copied .env.
    expect(exampleEnv.FIREBASE_AUTH_EMULATOR_HOST).toBe('');
    expect(exampleEnv.FIREBASE_AUTH_EMULATOR_URL).toBe('');
  });
});
