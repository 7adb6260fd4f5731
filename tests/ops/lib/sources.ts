// The single source of truth the deployment files are checked against: the processes of the distributed
// run (scripts/lib/stack.ts), the services of the route table, and the config schema each process reads.
import fs from 'node:fs';
import path from 'node:path';
import { SERVICE_NAMES } from '@ct/contracts';
import { GatewayConfig } from '@ct/gateway/config';
import { MODULES } from '@ct/gateway/modules';
import { BaseConfig } from '@ct/service-kit';
import type { TObject } from 'typebox';
import { PROCESSES, ROOT } from '../../../scripts/lib/stack.ts';

export { PROCESSES, ROOT, SERVICE_NAMES };

export interface ProcessSpec {
  name: string;
  entry: string;
  port: number;
  urlVar: string | null;
  /** The workspace folder (services/colleges, gateway). */
  workspace: string;
  /** Every variable the process's config schema reads. */
  configKeys: Set<string>;
  /** Its own variables, beyond the base ones every process reads. */
  ownKeys: Set<string>;
  /** Its own variables that are not optional in the schema (they have a default or must be set). */
  ownSettings: Set<string>;
  /** Liveness and readiness paths. */
  health: { live: string; ready: string };
}

const BASE_KEYS = new Set(Object.keys(BaseConfig.properties));

function schemaFor(name: string): TObject {
  if (name === 'gateway') return GatewayConfig;
  const m = MODULES.find((x) => x.name === name);
  if (!m) throw new Error(`process ${name} has no service module in gateway/src/modules.ts`);
  return m.config;
}

/** Every process of the distributed run with what its deployment entries must agree with. */
export function processSpecs(): ProcessSpec[] {
  return PROCESSES.map((p) => {
    const schema = schemaFor(p.name);
    const keys = new Set(Object.keys(schema.properties));
    const required = new Set(schema.required ?? []);
    const workspace = p.entry.replace(/\/src\/server\.ts$/, '');
    const gw = p.name === 'gateway';
    return {
      name: p.name,
      entry: p.entry,
      port: p.port,
      urlVar: p.urlVar,
      workspace,
      configKeys: keys,
      ownKeys: new Set([...keys].filter((k) => !BASE_KEYS.has(k))),
      ownSettings: new Set([...keys].filter((k) => !BASE_KEYS.has(k) && required.has(k))),
      health: gw ? { live: '/api/healthz', ready: '/api/readyz' } : { live: '/healthz', ready: '/readyz' },
    };
  });
}

/**
 * Variables read by libraries rather than by our config schemas, allowed in deployment files:
 * firebase-admin's service-account path (production gateway only).
 */
export const LIBRARY_ENV = new Set(['GOOGLE_APPLICATION_CREDENTIALS']);

/** Variables a process must be given in containers (no usable default there). */
export function requiredInContainers(p: ProcessSpec): string[] {
  const base = ['PORT', 'INTERNAL_TOKEN', 'REDIS_URL', 'QUEUE_PREFIX', 'FIREBASE_PROJECT_ID'];
  if (p.name === 'gateway') {
    return [...base, 'GATEWAY_MODE', ...PROCESSES.flatMap((x) => (x.urlVar ? [x.urlVar] : []))];
  }
  return [...base, 'DATABASE_URL'];
}

/** Workspace folders of the root package.json (its `services/*` patterns expanded). */
export function workspaces(): string[] {
  const patterns = (JSON.parse(fs.readFileSync(rel('package.json'), 'utf8')) as { workspaces: string[] })
    .workspaces;
  return patterns
    .flatMap((w) =>
      w.endsWith('/*') ? fs.readdirSync(rel(w.slice(0, -2))).map((d) => `${w.slice(0, -1)}${d}`) : [w],
    )
    .filter((w) => fs.existsSync(rel(w, 'package.json')));
}

export const rel = (...p: string[]) => path.join(ROOT, ...p);
