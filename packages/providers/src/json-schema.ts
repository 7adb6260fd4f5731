import type { TSchema } from 'typebox';

type Json = Record<string, unknown>;

/** Keywords the strict structured-output mode refuses; they are checked locally after the answer instead. */
const DROP = new Set(['minLength', 'maxLength', 'default', 'errorMessage', '$id', 'examples']);
const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Turns a contracts (TypeBox) schema into the JSON schema OpenAI's strict structured outputs accept:
 * every object closed (`additionalProperties: false`) with all its properties required, optional
 * properties made nullable, and keywords the strict mode refuses dropped. Records (open maps) cannot be
 * expressed in strict mode and are refused.
 */
export function toStrictJsonSchema(schema: TSchema): Json {
  let strict = converted.get(schema);
  if (!strict) {
    strict = convert(JSON.parse(JSON.stringify(schema)) as Json, '#');
    converted.set(schema, strict);
  }
  return strict;
}
const converted = new WeakMap<TSchema, Json>();

function convert(node: Json, at: string): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (DROP.has(k)) continue;
    if (k === 'format' && !STRICT_FORMATS.has(String(v))) continue;
    if (k === 'patternProperties')
      throw new Error(`strict JSON schema: open record at ${at} is not supported`);
    out[k] = v;
  }
  if (out.type === 'object' || out.properties) {
    const props = (out.properties ?? {}) as Record<string, Json>;
    const required = new Set((out.required as string[] | undefined) ?? []);
    const next: Record<string, Json> = {};
    for (const [key, prop] of Object.entries(props)) {
      const converted = convert(prop, `${at}/${key}`);
      next[key] = required.has(key) ? converted : nullable(converted);
    }
    out.type = 'object';
    out.properties = next;
    out.required = Object.keys(next);
    out.additionalProperties = false;
  }
  if (out.items && typeof out.items === 'object') out.items = convert(out.items as Json, `${at}/items`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(out[key]))
      out[key] = (out[key] as Json[]).map((s, i) => convert(s, `${at}/${key}/${i}`));
  }
  if (Array.isArray(out.oneOf)) {
    // strict mode knows anyOf only
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  return out;
}

function nullable(s: Json): Json {
  if (Array.isArray(s.anyOf) && (s.anyOf as Json[]).some((x) => x.type === 'null')) return s;
  const { description, ...rest } = s;
  return { anyOf: [rest, { type: 'null' }], ...(description ? { description } : {}) };
}

/**
 * Removes the nulls strict mode forced into properties the original schema marks optional, so the answer
 * validates against the original schema.
 */
export function dropNullOptionals(schema: TSchema, value: unknown): unknown {
  const s = schema as unknown as Json;
  if (Array.isArray(value)) {
    const items = s.items as TSchema | undefined;
    return items ? value.map((v) => dropNullOptionals(items, v)) : value;
  }
  if (value && typeof value === 'object' && s.properties) {
    const props = s.properties as Record<string, TSchema>;
    const required = new Set((s.required as string[] | undefined) ?? []);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === null && !required.has(k)) continue;
      out[k] = props[k] ? dropNullOptionals(props[k], v) : v;
    }
    return out;
  }
  return value;
}
