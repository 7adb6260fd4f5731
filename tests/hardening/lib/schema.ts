import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';

/** The subset of JSON Schema that TypeBox emits for the route table. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  default?: unknown;
}

// ajv and ajv-formats are CommonJS; under ESM interop the default export may be the module object.
type Ajv = InstanceType<typeof AjvModule>;
const AjvCtor = ((AjvModule as unknown as { default?: typeof AjvModule }).default ??
  AjvModule) as typeof AjvModule;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/** Same options as the services' validators (packages/service-kit/src/validation.ts). */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new AjvCtor({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}
const queryAjv = makeAjv(true);
const bodyAjv = makeAjv(false);
const compiled = new WeakMap<object, (v: unknown) => boolean>();

/**
 * True when the services would accept `value` for this schema: the same ajv options, query strings
 * coerced, JSON bodies not. Lets the fuzz decide per case whether a 400 is the only right answer.
 */
export function accepts(schema: JsonSchema, value: unknown, part: 'query' | 'body'): boolean {
  const key = schema as object;
  let fn = compiled.get(key);
  if (!fn) {
    const q = queryAjv.compile(schema);
    const b = bodyAjv.compile(schema);
    fn = (v: unknown) => (part === 'query' ? q(v) : b(v));
    // Query and body parts never share one schema object in the table, so one cache entry is enough.
    compiled.set(key, fn);
  }
  return fn(structuredClone(value));
}

// The last one is a web address (a push subscription's endpoint must be one, on a known push service).
const PATTERN_CANDIDATES = [
  'sample',
  'abc123',
  'application',
  '2027-01-15',
  'a',
  'x1',
  'https://fcm.googleapis.com/fcm/send/sample',
];

function firstType(s: JsonSchema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? s.type[0];
  return s.type;
}

/** The non-null options of a union, or the schema itself. */
export function options(s: JsonSchema): JsonSchema[] {
  const list = s.anyOf ?? s.oneOf;
  return list ? list.filter((o) => o.type !== 'null') : [s];
}

/** A string that satisfies a string schema. */
export function validString(s: JsonSchema, preferred?: string): string {
  const fits = (v: string) =>
    v.length >= (s.minLength ?? 0) &&
    v.length <= (s.maxLength ?? Infinity) &&
    (!s.pattern || new RegExp(s.pattern, 'u').test(v));
  if (preferred !== undefined && fits(preferred)) return preferred;
  if (s.format === 'date') return '2027-01-15';
  if (s.format === 'date-time') return '2026-11-22T10:00:00.000Z';
  for (const c of PATTERN_CANDIDATES) if (fits(c)) return c;
  return 'x'.repeat(Math.max(1, s.minLength ?? 1)).slice(0, s.maxLength ?? 1000);
}

/** A key for a `patternProperties` record (checklist sections are camelCase). */
export function recordKey(s: JsonSchema): string {
  const pattern = Object.keys(s.patternProperties ?? {})[0];
  if (!pattern) return 'application';
  return PATTERN_CANDIDATES.find((c) => new RegExp(pattern, 'u').test(c)) ?? 'application';
}

/**
 * A value the schema accepts, using `hints` by property name (a real college name, the caller's uid...)
 * so that requests reach the handler instead of stopping at validation. Optional properties are filled
 * only when hinted.
 */
export function sample(s: JsonSchema, hints: Record<string, unknown> = {}, name?: string): unknown {
  if (name !== undefined && name in hints && hints[name] !== undefined) return hints[name];
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf || s.oneOf) return sample(options(s)[0]!, hints, name);
  if (s.default !== undefined) return s.default;
  switch (firstType(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(s.properties ?? {})) {
        const required = s.required?.includes(k) ?? false;
        if (required || (k in hints && hints[k] !== undefined)) out[k] = sample(sub, hints, k);
      }
      const pp = s.patternProperties && Object.values(s.patternProperties)[0];
      if (pp) out[recordKey(s)] = sample(pp, hints);
      return out;
    }
    case 'array':
      return s.items && s.maxItems !== 0 ? [sample(s.items, hints)] : [];
    case 'string':
      return validString(s);
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'sample';
  }
}

/** Query strings carry text: the wire form of a sampled query object. */
export function toQuery(v: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!v || typeof v !== 'object') return out;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x === undefined) continue;
    out[k] = Array.isArray(x) ? x.map(String) : String(x);
  }
  return out;
}
