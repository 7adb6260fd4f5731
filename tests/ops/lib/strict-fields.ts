// The Kubernetes schemas accept unknown fields (the API server drops them silently), so a typo such as
// `readinesProbe` would pass validation and leave a pod without its probe. This walks an object along
// the field declarations that kubernetes-models ships (one interface per .d.ts file) and lists every
// field the schema does not declare.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface Decl {
  /** Declared fields and the .d.ts file describing each field's type (null: a leaf or a free-form map). */
  fields: Map<string, string | null>;
}

const cache = new Map<string, Decl | null>();

function resolveImport(from: string, spec: string): string | null {
  if (spec.startsWith('.')) return path.resolve(path.dirname(from), spec.replace(/\.js$/, '.d.ts'));
  const m = /^(@[^/]+\/[^/]+|[^@/][^/]*)\/(.+)$/.exec(spec);
  if (!m) return null;
  try {
    const pkgJson = createRequire(from).resolve(`${m[1]}/package.json`);
    const file = path.join(path.dirname(pkgJson), `${m[2]}.d.ts`);
    return fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

function load(file: string): Decl | null {
  if (cache.has(file)) return cache.get(file)!;
  let decl: Decl | null = null;
  if (fs.existsSync(file)) {
    const src = fs.readFileSync(file, 'utf8');
    const start = /^export interface \w+( extends TypeMeta)? \{$/m.exec(src);
    if (start) {
      const imports = new Map<string, string>();
      for (const m of src.matchAll(/^import \{ (\w+) \} from "([^"]+)";$/gm)) imports.set(m[1]!, m[2]!);
      const body = src.slice(start.index + start[0].length, src.indexOf('\n}', start.index));
      const fields = new Map<string, string | null>();
      if (start[1]) {
        fields.set('apiVersion', null);
        fields.set('kind', null);
      }
      // A field's type is on its line; free-form maps (`{ [key: string]: ... }`) open a block and are leaves.
      for (const m of body.matchAll(/^ {4}"([^"]+)"\??: (.+)$/gm)) {
        const type = m[2]!.replace(/;$/, '').replace(/^Array<(.+)>$/, '$1');
        const spec = /^\w+$/.test(type) ? imports.get(type) : undefined;
        fields.set(m[1]!, spec ? resolveImport(file, spec) : null);
      }
      decl = { fields };
    }
  }
  cache.set(file, decl);
  return decl;
}

/** The .d.ts of the model for an apiVersion/kind, as kubernetes-models and its KEDA package lay them out. */
export function modelDeclaration(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const req = createRequire(import.meta.url);
  const root =
    group === 'keda.sh'
      ? path.dirname(req.resolve('@kubernetes-models/keda/package.json'))
      : path.dirname(req.resolve('kubernetes-models/package.json'));
  return path.join(root, group ? `${group}/${version}` : version!, `${kind}.d.ts`);
}

/** Paths of every field of `value` that the declaration in `file` (and the ones it refers to) lacks. */
export function unknownFields(value: unknown, file: string, at = ''): string[] {
  const decl = load(file);
  if (!decl || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownFields(v, file, `${at}[${i}]`));
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (!decl.fields.has(k)) {
      out.push(`${at}.${k}`);
      continue;
    }
    const next = decl.fields.get(k);
    if (next) out.push(...unknownFields(v, next, `${at}.${k}`));
  }
  return out;
}
