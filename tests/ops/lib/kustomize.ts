// A small Kustomize renderer for the features k8s/ uses, so overlays can be rendered and checked with no
// kustomize/kubectl binary. It refuses any kustomization field it does not implement rather than
// silently rendering something different from `kubectl kustomize`.
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
};

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'labels',
  'images',
  'replicas',
  'patches',
]);

/** Kinds that are not namespaced (kustomize leaves their metadata.namespace alone). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'ClusterTriggerAuthentication',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
]);

/** Kinds whose `spec.selector.matchLabels` kustomize's labels (includeSelectors) set. */
const SELECTOR_KINDS = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'PodDisruptionBudget',
]);

/** List fields merged item by item (strategic merge keys), as kustomize does for the built-in kinds. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  envFrom: '', // replaced whole
  ports: 'containerPort',
  volumes: 'name',
  volumeMounts: 'mountPath',
};

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads every YAML document of a file (empty documents skipped); throws on a YAML error. */
export function readYamlDocs(file: string): unknown[] {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'), { merge: true });
  const out: unknown[] = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    const v: unknown = d.toJS();
    if (v !== null && v !== undefined) out.push(v);
  }
  return out;
}

/** Strategic-merge `patch` into `target` (kustomize semantics for the keys above; null deletes). */
export function strategicMerge(target: Json, patch: Json, key = ''): Json {
  if (Array.isArray(patch)) {
    const mergeKey = MERGE_KEYS[key];
    if (!mergeKey || !Array.isArray(target)) return structuredClone(patch);
    const out = structuredClone(target);
    for (const item of patch) {
      const idx = isObject(item) ? out.findIndex((t) => isObject(t) && t[mergeKey] === item[mergeKey]) : -1;
      if (idx >= 0) out[idx] = strategicMerge(out[idx]!, item, '');
      else out.push(structuredClone(item));
    }
    return out;
  }
  if (isObject(patch)) {
    const out: Record<string, Json> = isObject(target) ? structuredClone(target) : {};
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete out[k];
      else out[k] = k in out ? strategicMerge(out[k]!, v, k) : structuredClone(v);
    }
    return out;
  }
  return patch;
}

function decodePointer(p: string): string[] {
  return p
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Applies RFC 6902 operations (add, replace, remove) to an object. */
export function jsonPatch(doc: Json, ops: Array<{ op: string; path: string; value?: Json }>): Json {
  const root = structuredClone(doc);
  for (const o of ops) {
    const parts = decodePointer(o.path);
    const last = parts.pop();
    if (last === undefined) throw new Error(`bad patch path ${o.path}`);
    let cur: Json = root;
    for (const p of parts) {
      const next: Json | undefined = Array.isArray(cur) ? cur[Number(p)] : isObject(cur) ? cur[p] : undefined;
      if (next === undefined) throw new Error(`patch path ${o.path} not found`);
      cur = next;
    }
    if (o.op === 'add' || o.op === 'replace') {
      if (o.value === undefined) throw new Error(`${o.op} ${o.path} needs a value`);
      if (Array.isArray(cur)) {
        if (last === '-') cur.push(o.value);
        else if (o.op === 'add') cur.splice(Number(last), 0, o.value);
        else cur[Number(last)] = o.value;
      } else if (isObject(cur)) {
        if (o.op === 'replace' && !(last in cur)) throw new Error(`replace ${o.path}: no such field`);
        cur[last] = o.value;
      } else throw new Error(`patch path ${o.path} is not a container`);
    } else if (o.op === 'remove') {
      if (Array.isArray(cur)) cur.splice(Number(last), 1);
      else if (isObject(cur)) delete cur[last];
    } else {
      throw new Error(`unsupported JSON patch op ${o.op}`);
    }
  }
  return root;
}

function matches(obj: K8sObject, target: { kind?: string; name?: string }): boolean {
  return (!target.kind || obj.kind === target.kind) && (!target.name || obj.metadata.name === target.name);
}

function podTemplateContainers(obj: K8sObject): Array<Record<string, Json>> {
  const spec = obj.spec as { template?: { spec?: { containers?: Array<Record<string, Json>> } } } | undefined;
  return spec?.template?.spec?.containers ?? [];
}

/** Renders the kustomization in `dir` (a folder with kustomization.yaml) to a list of objects. */
export function renderKustomization(dir: string): K8sObject[] {
  const file = path.join(dir, 'kustomization.yaml');
  const [k] = readYamlDocs(file) as Array<Record<string, unknown>>;
  if (!k) throw new Error(`${file} is empty`);
  for (const key of Object.keys(k)) {
    if (!SUPPORTED.has(key)) throw new Error(`${file}: field "${key}" is not supported by this renderer`);
  }
  let objects: K8sObject[] = [];
  for (const r of (k.resources as string[] | undefined) ?? []) {
    const p = path.resolve(dir, r);
    if (fs.statSync(p).isDirectory()) objects.push(...renderKustomization(p));
    else objects.push(...(readYamlDocs(p) as K8sObject[]));
  }

  for (const l of (k.labels as Array<{ pairs: Record<string, string>; includeSelectors?: boolean }>) ?? []) {
    objects = objects.map((o) => {
      const out = structuredClone(o);
      out.metadata.labels = { ...out.metadata.labels, ...l.pairs };
      const spec = out.spec as
        | {
            template?: { metadata?: { labels?: Record<string, string> } };
            selector?: Record<string, unknown> & { matchLabels?: Record<string, string> };
          }
        | undefined;
      const tmpl = spec?.template;
      if (tmpl) tmpl.metadata = { ...tmpl.metadata, labels: { ...tmpl.metadata?.labels, ...l.pairs } };
      // includeSelectors: the selectors of the built-in kinds too, so they keep matching their pods.
      if (l.includeSelectors && spec) {
        if (o.kind === 'Service') spec.selector = { ...spec.selector, ...l.pairs };
        else if (SELECTOR_KINDS.has(o.kind))
          spec.selector = { ...spec.selector, matchLabels: { ...spec.selector?.matchLabels, ...l.pairs } };
      }
      return out;
    });
  }

  type Patch = {
    path?: string;
    patch?: string;
    target?: Record<string, string>;
    options?: { allowNameChange?: boolean };
  };
  for (const p of (k.patches as Patch[] | undefined) ?? []) {
    const docs = p.path
      ? readYamlDocs(path.resolve(dir, p.path))
      : parseAllDocuments(p.patch ?? '').map((d) => d.toJS() as unknown);
    if (docs.length === 1 && Array.isArray(docs[0])) {
      if (!p.target) throw new Error(`${file}: a JSON 6902 patch needs a target`);
      const hits = objects.filter((o) => matches(o, p.target!));
      if (!hits.length) throw new Error(`${file}: patch target ${JSON.stringify(p.target)} matches nothing`);
      objects = objects.map((o) => {
        if (!matches(o, p.target!)) return o;
        const out = jsonPatch(o as unknown as Json, docs[0] as never) as unknown as K8sObject;
        // As kustomize: a patch may rename its target only when it says so.
        if (out.metadata.name !== o.metadata.name && !p.options?.allowNameChange)
          throw new Error(`${file}: patch renames ${o.metadata.name} without options.allowNameChange`);
        return out;
      });
      continue;
    }
    for (const d of docs as K8sObject[]) {
      const target = p.target ?? { kind: d.kind, name: d.metadata.name };
      const hits = objects.filter((o) => matches(o, target));
      if (!hits.length)
        throw new Error(`${file}: patch for ${target.kind}/${target.name} matches no resource`);
      objects = objects.map((o) =>
        matches(o, target)
          ? (strategicMerge(o as unknown as Json, d as unknown as Json) as unknown as K8sObject)
          : o,
      );
    }
  }

  for (const img of (k.images as Array<{ name: string; newName?: string; newTag?: string }>) ?? []) {
    let used = false;
    for (const o of objects) {
      for (const c of podTemplateContainers(o)) {
        const image = String(c.image ?? '');
        const [name, tag] = image.split(':');
        if (name !== img.name) continue;
        used = true;
        c.image = `${img.newName ?? name}${img.newTag ? `:${img.newTag}` : tag ? `:${tag}` : ''}`;
      }
    }
    if (!used) throw new Error(`${file}: image ${img.name} is used by no container`);
  }

  for (const r of (k.replicas as Array<{ name: string; count: number }>) ?? []) {
    const hits = objects.filter((o) => o.kind === 'Deployment' && o.metadata.name === r.name);
    if (!hits.length) throw new Error(`${file}: replicas for unknown Deployment ${r.name}`);
    for (const o of hits) (o.spec as { replicas?: number }).replicas = r.count;
  }

  if (typeof k.namespace === 'string') {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  return objects;
}
