// k8s/: every manifest parses and validates against the Kubernetes (and KEDA) schemas, both overlays
// render, and what they describe agrees with the code: one Deployment + Service + PodDisruptionBudget per
// process, ports, probes on the real health routes, env names the config schemas read, no secret values.
import webpush from 'web-push';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ESSAY_EXAMPLES_QUEUE, INGESTION_QUEUE } from '@ct/contracts';
import { describe, expect, it } from 'vitest';
import { readYamlDocs, renderKustomization, strategicMerge, type K8sObject } from './lib/kustomize.ts';
import { modelDeclaration, unknownFields } from './lib/strict-fields.ts';
import { LIBRARY_ENV, processSpecs, requiredInContainers, rel, SERVICE_NAMES } from './lib/sources.ts';
import { scalerSelection } from './lib/scaler.ts';

interface Container {
  name: string;
  image: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
  exec?: { command: string[] };
  tcpSocket?: { port: number | string };
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
  automountServiceAccountToken?: boolean;
  volumes?: Array<{ name: string; secret?: { secretName: string } }>;
}

const K8S = rel('k8s');
const OVERLAYS = ['dev', 'prod'] as const;
const specs = processSpecs();

const rendered = {
  base: renderKustomization(path.join(K8S, 'base')),
  dev: renderKustomization(path.join(K8S, 'overlays/dev')),
  prod: renderKustomization(path.join(K8S, 'overlays/prod')),
};

const find = (objs: K8sObject[], kind: string, name: string) =>
  objs.find((o) => o.kind === kind && o.metadata.name === name);
const podSpec = (d: K8sObject) => (d.spec as { template: { spec: PodSpec } }).template.spec;
const podLabels = (d: K8sObject) =>
  (d.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;

/** Loads the model class for an object's apiVersion/kind from kubernetes-models or its KEDA package. */
async function modelFor(o: K8sObject): Promise<{ validate(): void }> {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  const mod =
    group === 'keda.sh'
      ? `@kubernetes-models/keda/keda.sh/${version}/${o.kind}`
      : group
        ? `kubernetes-models/${group}/${version}/${o.kind}`
        : `kubernetes-models/${version}/${o.kind}`;
  const loaded = (await import(mod)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = loaded[o.kind];
  if (!Model) throw new Error(`no model for ${o.apiVersion} ${o.kind}`);
  return new Model(o);
}

function configMapKeys(objs: K8sObject[], name: string): Record<string, string> {
  const cm = find(objs, 'ConfigMap', name);
  if (!cm) throw new Error(`ConfigMap ${name} is referenced but not defined`);
  return (cm.data as Record<string, string>) ?? {};
}

/** Every variable a container is given (env + envFrom ConfigMaps) with its value where known. */
function containerEnv(objs: K8sObject[], c: Container): Map<string, string | null> {
  const env = new Map<string, string | null>();
  for (const f of c.envFrom ?? []) {
    if (f.secretRef) throw new Error(`${c.name}: envFrom a whole Secret hides which variables it sets`);
    if (f.configMapRef)
      for (const [k, v] of Object.entries(configMapKeys(objs, f.configMapRef.name))) env.set(k, v);
  }
  for (const e of c.env ?? []) env.set(e.name, e.value ?? null);
  return env;
}

function resolvePort(c: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

describe('k8s manifests', () => {
  const files = fs
    .readdirSync(K8S, { recursive: true })
    .map(String)
    .filter((f) => /\.ya?ml$/.test(f));

  it.each(files)('%s parses as YAML', (f) => {
    expect(() => readYamlDocs(path.join(K8S, f))).not.toThrow();
  });

  it.each(Object.keys(rendered))(
    '%s: every object validates against the Kubernetes / KEDA schemas',
    async (k) => {
      const objs = rendered[k as keyof typeof rendered];
      expect(objs.length).toBeGreaterThan(10);
      const problems: string[] = [];
      for (const o of objs) {
        try {
          (await modelFor(o)).validate();
        } catch (err) {
          problems.push(`${o.kind}/${o.metadata.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(Object.keys(rendered))(
    '%s: no field the schemas do not declare (a typo would be dropped silently)',
    (k) => {
      const objs = rendered[k as keyof typeof rendered];
      const unknown = objs.flatMap((o) =>
        unknownFields(o, modelDeclaration(o.apiVersion, o.kind)).map(
          (f) => `${o.kind}/${o.metadata.name}${f}`,
        ),
      );
      expect(unknown).toEqual([]);
      const typo = structuredClone(find(objs, 'Deployment', 'gateway')!) as unknown as {
        spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
      };
      typo.spec.template.spec.containers[0]!.readinesProbe = {};
      expect(unknownFields(typo, modelDeclaration('apps/v1', 'Deployment'))).toEqual([
        '.spec.template.spec.containers[0].readinesProbe',
      ]);
    },
  );

  it('the validator does reject a broken manifest (so the check above can fail)', async () => {
    const d = structuredClone(find(rendered.base, 'Deployment', 'auth')!);
    podSpec(d).containers[0]!.ports = [{ containerPort: 'http' as unknown as number }];
    await expect(async () => (await modelFor(d)).validate()).rejects.toThrow(/containerPort/);
  });

  it('commits no Secret and no secret value: only references to Secrets made outside Git', () => {
    for (const objs of Object.values(rendered)) {
      expect(objs.filter((o) => o.kind === 'Secret')).toEqual([]);
      for (const d of objs.filter((o) => o.kind === 'Deployment')) {
        for (const c of podSpec(d).containers) {
          for (const e of c.env ?? []) {
            if (
              /TOKEN|PASSWORD|SECRET|_KEY$|DATABASE_URL|REDIS_URL/.test(e.name) &&
              e.name !== 'FIREBASE_API_KEY'
            )
              expect(
                e.valueFrom?.secretKeyRef,
                `${d.metadata.name} ${e.name} must come from a Secret`,
              ).toBeDefined();
          }
        }
      }
      for (const cm of objs.filter((o) => o.kind === 'ConfigMap'))
        for (const k of Object.keys((cm.data as object) ?? {}))
          expect(k).not.toMatch(/TOKEN|PASSWORD|SECRET|DATABASE_URL|REDIS_URL/);
    }
  });
});

describe.each(OVERLAYS)('overlay %s', (overlay) => {
  const objs = rendered[overlay];

  it('puts everything in its own namespace', () => {
    const ns = find(objs, 'Namespace', overlay === 'dev' ? 'college-ready-dev' : 'college-ready');
    expect(ns).toBeDefined();
    for (const o of objs.filter((x) => x.kind !== 'Namespace'))
      expect(o.metadata.namespace).toBe(ns!.metadata.name);
  });

  it('has a Deployment, a Service and a PodDisruptionBudget for every process and every route-table service', () => {
    for (const name of [...specs.map((p) => p.name), ...SERVICE_NAMES]) {
      expect(find(objs, 'Deployment', name), `Deployment ${name}`).toBeDefined();
      expect(find(objs, 'Service', name), `Service ${name}`).toBeDefined();
      expect(find(objs, 'PodDisruptionBudget', name), `PodDisruptionBudget ${name}`).toBeDefined();
    }
  });

  it('every Deployment has probes, CPU and memory requests and limits, and runs as non-root', () => {
    for (const d of objs.filter((o) => o.kind === 'Deployment')) {
      const pod = podSpec(d);
      const who = `Deployment ${d.metadata.name}`;
      expect(pod.securityContext?.runAsNonRoot, who).toBe(true);
      expect(pod.securityContext?.runAsUser, who).toBeGreaterThan(0);
      for (const c of pod.containers) {
        expect(c.readinessProbe, `${who} readinessProbe`).toBeDefined();
        expect(c.livenessProbe, `${who} livenessProbe`).toBeDefined();
        for (const r of ['cpu', 'memory']) {
          expect(c.resources?.requests?.[r], `${who} requests.${r}`).toBeDefined();
          expect(c.resources?.limits?.[r], `${who} limits.${r}`).toBeDefined();
        }
        expect(c.securityContext?.allowPrivilegeEscalation, who).toBe(false);
        expect(c.securityContext?.capabilities?.drop, who).toEqual(['ALL']);
        expect(c.securityContext?.runAsNonRoot, who).toBe(true);
      }
    }
  });

  it.each(specs.map((p) => [p.name, p] as const))(
    '%s: port, health routes, env names and shutdown time agree with the code',
    (_, p) => {
      const d = find(objs, 'Deployment', p.name)!;
      const pod = podSpec(d);
      const c = pod.containers[0]!;
      expect(c.image.split(':')[0]).toMatch(new RegExp(`college-ready/${p.name}$`));
      expect(c.ports?.map((x) => x.containerPort)).toEqual([p.port]);
      expect(c.readinessProbe?.httpGet?.path).toBe(p.health.ready);
      expect(resolvePort(c, c.readinessProbe?.httpGet?.port)).toBe(p.port);
      expect(c.livenessProbe?.httpGet?.path).toBe(p.health.live);
      expect(resolvePort(c, c.livenessProbe?.httpGet?.port)).toBe(p.port);
      expect(c.securityContext?.readOnlyRootFilesystem).toBe(true);
      expect(pod.automountServiceAccountToken).toBe(false);

      const env = containerEnv(objs, c);
      const unread = [...env.keys()].filter((n) => !p.configKeys.has(n) && !LIBRARY_ENV.has(n));
      expect(unread, `${p.name} is given variables its config does not read`).toEqual([]);
      for (const n of requiredInContainers(p)) expect([...env.keys()], `${p.name} needs ${n}`).toContain(n);
      const embeddedOnly = new Set(['RUN_WORKER', 'DATA_DIR']);
      // Optional ones (provider keys, the emulator URL) may be left out per environment.
      const missing = [...p.ownSettings].filter((k) => !embeddedOnly.has(k) && !env.has(k));
      expect(missing, `${p.name}: own settings missing`).toEqual([]);
      expect(env.get('PORT')).toBe(String(p.port));
      for (const other of specs)
        if (other.urlVar && env.has(other.urlVar))
          expect(env.get(other.urlVar)).toBe(`http://${other.name}:${other.port}`);
      if (p.name === 'gateway') expect(env.get('GATEWAY_MODE')).toBe('distributed');

      // SIGTERM arrives after preStop; the process drains for SHUTDOWN_DRAIN_MS and exits within 5 s more.
      const drainS = Number(env.get('SHUTDOWN_DRAIN_MS')) / 1000;
      const preStop = c.lifecycle?.preStop?.sleep?.seconds ?? 0;
      expect(drainS).toBeGreaterThan(0);
      expect(pod.terminationGracePeriodSeconds ?? 30).toBeGreaterThanOrEqual(preStop + drainS + 5);

      const svc = find(objs, 'Service', p.name)!;
      const spec = svc.spec as {
        selector: Record<string, string>;
        ports: Array<{ port: number; targetPort: string | number }>;
      };
      expect(spec.ports.map((x) => x.port)).toEqual([p.port]);
      expect(resolvePort(c, spec.ports[0]!.targetPort)).toBe(p.port);
      expect(podLabels(d)).toMatchObject(spec.selector);
      const pdb = find(objs, 'PodDisruptionBudget', p.name)!;
      expect(podLabels(d)).toMatchObject(
        (pdb.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
      );
    },
  );

  it('every process starts with what it is given: schema and start rules pass (secrets as the Secret gives them)', async () => {
    const { parseConfig, SEPARATE_PROCESS_RULE, STORE_RULE } = await import('@ct/service-kit');
    const { GatewayConfig, GATEWAY_RULES } = await import('@ct/gateway/config');
    const { MODULES } = await import('@ct/gateway/modules');
    // The push keys an operator makes with `npx web-push generate-vapid-keys` (not random hex).
    const vapid = webpush.generateVAPIDKeys();
    const fromSecret: Record<string, string> = {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      DATABASE_URL: 'postgres://college_ready:pw@postgres:5432/college_ready',
      REDIS_URL: 'redis://redis:6379',
      OPENAI_BASE_URL: 'https://api.openai.com/v1',
      SCORECARD_API_URL: 'https://api.data.gov/ed/collegescorecard/v1',
      SMTP_URL: 'smtp://digest:password@mail.example.org:587',
    };
    for (const p of specs) {
      const c = podSpec(find(objs, 'Deployment', p.name)!).containers[0]!;
      const env = Object.fromEntries(
        [...containerEnv(objs, c)].map(([k, v]) => [
          k,
          v ?? fromSecret[k] ?? randomBytes(32).toString('hex'),
        ]),
      );
      const schema = p.name === 'gateway' ? GatewayConfig : MODULES.find((m) => m.name === p.name)!.config;
      const rules = (p.name === 'gateway' ? GATEWAY_RULES : [SEPARATE_PROCESS_RULE, STORE_RULE]) as never;
      expect(() => parseConfig(schema, env, rules), `${overlay} ${p.name}`).not.toThrow();
    }
  });

  it('points nothing at the Auth emulator unless it runs as development (dev overlay only)', () => {
    for (const d of objs.filter((o) => o.kind === 'Deployment')) {
      const env = containerEnv(objs, podSpec(d).containers[0]!);
      const host = env.get('FIREBASE_AUTH_EMULATOR_HOST');
      if (!host) continue;
      expect(overlay, `${d.metadata.name} has an emulator host`).toBe('dev');
      expect(env.get('NODE_ENV'), d.metadata.name).toBe('development');
    }
    const gateway = containerEnv(objs, podSpec(find(objs, 'Deployment', 'gateway')!).containers[0]!);
    expect(gateway.has('OPS_SESSION_SECRET')).toBe(true);
    expect(gateway.get('TRUST_PROXY')).toBeTruthy();
  });

  it('routes the outside world to the gateway only, through the Ingress', () => {
    const ingresses = objs.filter((o) => o.kind === 'Ingress');
    expect(ingresses).toHaveLength(1);
    const backends = JSON.stringify(ingresses[0]!.spec).match(/"service":\{"name":"([^"]+)"/g) ?? [];
    expect(backends.map((b) => b.replace(/.*"name":"/, '').replace('"', ''))).toEqual(['gateway']);
    for (const s of objs.filter((o) => o.kind === 'Service'))
      expect((s.spec as { type?: string }).type ?? 'ClusterIP', s.metadata.name).toBe('ClusterIP');
  });

  it("scales the ingestion worker with KEDA on the real backlog of the worker's queues (issue 45)", () => {
    const so = find(objs, 'ScaledObject', 'ingestion-worker')!;
    const spec = so.spec as {
      scaleTargetRef: { name: string };
      minReplicaCount: number;
      maxReplicaCount: number;
      triggers: Array<{ type: string; metadata: Record<string, string> }>;
    };
    expect(find(objs, 'Deployment', spec.scaleTargetRef.name)).toBeDefined();
    expect(spec.scaleTargetRef.name).toBe('ingestion-worker');
    expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);
    expect(spec.triggers).toHaveLength(1);
    const [t] = spec.triggers;
    expect(t!.type).toBe('prometheus');
    expect(Number(t!.metadata.threshold)).toBeGreaterThan(0);
    // The query reads the gauge the worker exports, for the queues it serves, waiting and running.
    const { queues, states } = scalerSelection(t!.metadata.query!);
    expect(queues).toEqual([INGESTION_QUEUE, ESSAY_EXAMPLES_QUEUE]);
    expect(states).toEqual(['waiting', 'active']);
  });
});

describe('overlays render as intended', () => {
  it('dev: one replica each, verbose logs, the emulator and local infrastructure in the namespace', () => {
    for (const p of specs) {
      const replicas = (find(rendered.dev, 'Deployment', p.name)!.spec as { replicas: number }).replicas;
      expect(replicas, p.name).toBe(1);
    }
    expect(configMapKeys(rendered.dev, 'college-ready-config').LOG_LEVEL).toBe('debug');
    // A patch of one key keeps the others.
    expect(configMapKeys(rendered.dev, 'college-ready-config').QUEUE_PREFIX).toBe('ct');
    // Every process of the dev overlay is a development run against the in-namespace emulator.
    expect(configMapKeys(rendered.dev, 'college-ready-config')).toMatchObject({
      NODE_ENV: 'development',
      FIREBASE_AUTH_EMULATOR_HOST: 'auth-emulator:9099',
    });
    for (const n of ['postgres', 'redis', 'auth-emulator'])
      expect(find(rendered.dev, 'Deployment', n)).toBeDefined();
    expect(podSpec(find(rendered.dev, 'Deployment', 'gateway')!).containers[0]!.image).toBe(
      'college-ready/gateway:dev',
    );
  });

  it('prod: registry images with tags, TLS, more replicas, Firebase credentials merged into the gateway', () => {
    for (const d of rendered.prod.filter((o) => o.kind === 'Deployment'))
      for (const c of podSpec(d).containers)
        expect(c.image).toMatch(/^registry\.example\.com\/college-ready\/[a-z-]+:\d+\.\d+\.\d+$/);
    const ing = find(rendered.prod, 'Ingress', 'college-ready')!.spec as {
      tls: Array<{ hosts: string[] }>;
      rules: Array<{ host: string }>;
    };
    expect(ing.rules[0]!.host).toBe('collegeready.example.org');
    expect(ing.tls[0]!.hosts).toEqual(['collegeready.example.org']);
    const gw = podSpec(find(rendered.prod, 'Deployment', 'gateway')!);
    const names = gw.containers[0]!.env!.map((e) => e.name);
    // Strategic merge: the patch adds its variable and keeps the base ones.
    expect(names).toEqual(
      expect.arrayContaining(['GOOGLE_APPLICATION_CREDENTIALS', 'PORT', 'INTERNAL_TOKEN']),
    );
    expect(gw.volumes?.map((v) => v.name).sort()).toEqual(['firebase-admin', 'tmp']);
    // The auth service deletes accounts with the Admin SDK: it gets the same credentials.
    const auth = podSpec(find(rendered.prod, 'Deployment', 'auth')!);
    expect(auth.containers[0]!.env!.map((e) => e.name)).toContain('GOOGLE_APPLICATION_CREDENTIALS');
    expect(auth.volumes?.map((v) => v.name).sort()).toEqual(['firebase-admin', 'tmp']);
    expect((find(rendered.prod, 'Deployment', 'gateway')!.spec as { replicas: number }).replicas).toBe(3);
    const so = find(rendered.prod, 'ScaledObject', 'ingestion-worker')!.spec as {
      minReplicaCount: number;
      triggers: unknown[];
    };
    expect(so.minReplicaCount).toBe(2);
    // Patching another field of the ScaledObject kept its trigger.
    expect(so.triggers).toHaveLength(1);
    expect(find(rendered.prod, 'HorizontalPodAutoscaler', 'gateway')).toBeDefined();
  });

  it('the renderer merges lists the way kustomize does for containers and env', () => {
    const merged = strategicMerge(
      {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'X', value: '1' },
              { name: 'Y', value: '2' },
            ],
          },
        ],
      },
      {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'Y', value: '3' },
              { name: 'Z', value: '4' },
            ],
          },
        ],
      },
    );
    expect(merged).toEqual({
      containers: [
        {
          name: 'a',
          env: [
            { name: 'X', value: '1' },
            { name: 'Y', value: '3' },
            { name: 'Z', value: '4' },
          ],
        },
      ],
    });
  });
});
