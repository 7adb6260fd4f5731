import type { RouteDef } from '@ct/contracts';
import type { ApiRequest } from './routes.ts';
import { options, recordKey, sample, toQuery, validString, type JsonSchema } from './schema.ts';

/** One malformed or hostile request, and how to judge the answer. */
export interface FuzzCase {
  label: string;
  req: ApiRequest;
  /**
   * `parsed`: the value the service will validate (the query object or the JSON body) — the test asks
   * ajv whether the schema accepts it. `reject`: not JSON or over a limit, so only a 4xx is right.
   */
  judge: { kind: 'parsed'; part: 'query' | 'body'; value: unknown } | { kind: 'reject' };
}

/** Strings that have broken other systems: SQL, LIKE wildcards, odd Unicode, markup, control codes. */
export const HOSTILE_STRINGS: ReadonlyArray<readonly [string, string]> = [
  ['sql quote', "' OR '1'='1"],
  ['sql drop', "x'); DROP TABLE user_data.notes; --"],
  ['sql union', "' UNION SELECT uid, role, email FROM auth.staff_roles --"],
  ['sql sleep', "'; SELECT pg_sleep(3); --"],
  ['sql comment', "admin'-- /*"],
  ['like wildcards', '%_%\\'],
  ['backslashes', '\\\\\'\\"'],
  ['NUL byte', 'abc\u0000def'],
  ['lone surrogate', 'x\ud800y'],
  ['rtl override', '\u202eevil\u202c'],
  ['zero-width', 'a\u200b\u200c\u200d\ufeffb'],
  ['emoji zwj', '👩🏽‍🎓🎓'],
  ['combining marks', 'e\u0301\u0301\u0301\u0301'],
  ['fullwidth', 'Ｈａｒｖａｒｄ'],
  ['homoglyphs', 'Наrvаrd'],
  ['whitespace only', '   \t\n  '],
  ['markup', '<script>alert(1)</script><img src=x onerror=alert(1)>'],
  ['template', '${process.env.INTERNAL_TOKEN}{{7*7}}'],
  ['path traversal', '../../../../etc/passwd'],
  ['format string', '%s%s%n%x'],
  ['json text', '{"$gt":""}'],
  ['crlf', 'a\r\nSet-Cookie: x=1'],
  ['control codes', '\u0001\u0007\u001b[31m'],
  ['long unicode', 'ü'.repeat(5000)],
  ['numeric text', '1e309'],
  ['null text', 'null'],
  ['proto text', '__proto__'],
];

export const INVALID_DATES = [
  '2027-02-30',
  '2027-02-29',
  '2027-13-01',
  '2027-00-10',
  '0000-00-00',
  '2027-1-5',
  '27-01-05',
  '2027/01/05',
  '2027-01-05T10:00:00Z',
  'yesterday',
  ' 2027-01-05',
  '9999-12-32',
];

const OPERATOR_OBJECTS: ReadonlyArray<readonly [string, unknown]> = [
  ['$gt operator', { $gt: '' }],
  ['$ne operator', { $ne: null }],
  ['$where operator', { $where: 'sleep(1000)' }],
  ['array', ['a', 'b']],
];

type Part = 'query' | 'body';

function typeOf(s: JsonSchema): string | undefined {
  const o = options(s)[0]!;
  return Array.isArray(o.type) ? o.type[0] : o.type;
}

function nullable(s: JsonSchema): boolean {
  return (s.anyOf ?? s.oneOf ?? []).some((o) => o.type === 'null');
}

/** Values of the wrong JSON type for a schema. */
function wrongTypes(s: JsonSchema): Array<[string, unknown]> {
  const t = typeOf(s);
  const out: Array<[string, unknown]> = [];
  if (t !== 'string') out.push(['a string', 'text']);
  if (t !== 'number' && t !== 'integer') out.push(['a number', 12345]);
  if (t !== 'boolean') out.push(['a boolean', true]);
  if (t !== 'object') out.push(['an object', { $gt: '' }]);
  if (t !== 'array') out.push(['an array', ['a']]);
  if (!nullable(s)) out.push(['null', null]);
  if (t === 'integer') out.push(['a fraction', 1.5]);
  if (t === 'number' || t === 'integer') out.push(['a huge number', 1e308]);
  return out;
}

/** Query values that do not coerce to the schema's type. */
function wrongQueryTypes(s: JsonSchema): Array<[string, string | string[]]> {
  const t = typeOf(s);
  if (t === 'integer' || t === 'number')
    return [
      ['letters', 'abc'],
      ['a fraction', '1.5'],
      ['a negative', '-1'],
      ['an overflow', '1e400'],
      ['NaN', 'NaN'],
      ['hex', '0x10'],
    ];
  if (t === 'boolean') return [['not a boolean', 'maybe']];
  return [['two values', ['a', 'b']]];
}

/** Values that break a string's limits: length, pattern, date format. */
function stringViolations(s: JsonSchema): Array<[string, string]> {
  const o = options(s)[0]!;
  const out: Array<[string, string]> = [];
  if (o.maxLength !== undefined) {
    out.push(['one over the maximum length', 'x'.repeat(o.maxLength + 1)]);
    out.push(['over the maximum in multi-byte letters', 'é'.repeat(o.maxLength + 1)]);
    out.push(['100,000 characters', 'y'.repeat(100_000)]);
  }
  if ((o.minLength ?? 0) > 0) out.push(['empty', '']);
  if (o.pattern)
    for (const v of ['a b', '../x', '<b>', "' OR 1=1 --", 'a\u0000'])
      out.push([`not matching ${o.pattern}`, v]);
  if (o.format === 'date') for (const d of INVALID_DATES) out.push([`invalid date ${JSON.stringify(d)}`, d]);
  if (o.format === 'date-time') out.push(['invalid date-time', '2027-02-30T25:61:00Z']);
  return out;
}

function numberViolations(s: JsonSchema): Array<[string, number]> {
  const o = options(s)[0]!;
  const out: Array<[string, number]> = [];
  if (o.minimum !== undefined) out.push(['below the minimum', o.minimum - 1]);
  if (o.maximum !== undefined) out.push(['above the maximum', o.maximum + 1]);
  out.push(['negative zero', -0]);
  return out;
}

/** Hostile strings cut to fit the schema, so they reach the handler. */
function hostileFits(s: JsonSchema): Array<[string, string]> {
  const o = options(s)[0]!;
  const out: Array<[string, string]> = [];
  for (const [name, v] of HOSTILE_STRINGS) {
    const cut = [...v].slice(0, o.maxLength ?? Infinity).join('');
    if (cut.length < (o.minLength ?? 0)) continue;
    if (o.pattern && !new RegExp(o.pattern, 'u').test(cut)) continue;
    out.push([name, cut]);
  }
  if (o.maxLength !== undefined && o.maxLength <= 20_000)
    out.push(['exactly the maximum length', validString(o).padEnd(o.maxLength, 'z')]);
  return out;
}

function setAt(root: unknown, path: Array<string | number>, value: unknown, remove = false): unknown {
  const copy: unknown = structuredClone(root);
  let cur = copy as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) cur = cur[p] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete cur[last];
  else cur[last] = value;
  return copy;
}

const show = (path: Array<string | number>) => path.join('.') || '(root)';

/** Every mutation of one JSON body (or query object) along the schema, at most three levels deep. */
function mutations(
  schema: JsonSchema,
  base: unknown,
  part: Part,
  path: Array<string | number> = [],
  depth = 0,
): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const s = options(schema)[0]!;
  const t = typeOf(schema);
  const at = (v: unknown) => (path.length ? setAt(base, path, v) : v);
  if (path.length) {
    if (part === 'body') for (const [n, v] of wrongTypes(schema)) out.push([`${show(path)} is ${n}`, at(v)]);
    else for (const [n, v] of wrongQueryTypes(schema)) out.push([`${show(path)} is ${n}`, at(v)]);
    if (t === 'string') {
      for (const [n, v] of stringViolations(schema)) out.push([`${show(path)} ${n}`, at(v)]);
      for (const [n, v] of hostileFits(schema)) out.push([`${show(path)} hostile: ${n}`, at(v)]);
      if (part === 'body')
        for (const [n, v] of OPERATOR_OBJECTS) out.push([`${show(path)} is an ${n}`, at(v)]);
    }
    if ((t === 'integer' || t === 'number') && part === 'body')
      for (const [n, v] of numberViolations(schema)) out.push([`${show(path)} ${n}`, at(v)]);
  }
  if (t === 'object' && depth < 3) {
    const value = (
      path.length ? path.reduce<unknown>((v, p) => (v as Record<string, unknown>)[p], base) : base
    ) as Record<string, unknown> | undefined;
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      if (s.required?.includes(k))
        out.push([`${show([...path, k])} missing`, setAt(base, [...path, k], undefined, true)]);
      const withValue = value && k in value ? base : setAt(base, [...path, k], sample(sub));
      out.push(...mutations(sub, withValue, part, [...path, k], depth + 1));
    }
    if (s.additionalProperties === false)
      out.push([`${show(path)} has an unknown field`, at({ ...value, role: 'admin' })]);
    else if (part === 'body') {
      out.push([
        `${show(path)} has extra privilege fields`,
        at({ ...value, role: 'admin', isAdmin: true, uid: 'someone-else' }),
      ]);
      out.push([`${show(path)} has a $where field`, at({ ...value, $where: '1 == 1' })]);
    }
    const pattern = Object.keys(s.patternProperties ?? {})[0];
    const item = pattern ? s.patternProperties![pattern]! : undefined;
    if (pattern && item && value) {
      const key = recordKey(s);
      for (const bad of ['Bad Key', '1starts-with-digit', 'a'.repeat(61), '__proto__', 'constructor', ''])
        out.push([
          `${show(path)} has key ${JSON.stringify(bad.slice(0, 12))}`,
          at({ [bad]: value[key] ?? [] }),
        ]);
      if (s.maxProperties !== undefined) {
        const many: Record<string, unknown> = {};
        for (let i = 0; i <= s.maxProperties; i++) many[`section${i}`] = [];
        out.push([`${show(path)} has ${s.maxProperties + 1} keys`, at(many)]);
      }
      out.push(
        ...mutations(
          item,
          setAt(base, [...path, key], value[key] ?? sample(item)),
          part,
          [...path, key],
          depth + 1,
        ),
      );
    }
  }
  if (t === 'array' && s.items && depth < 4) {
    if (s.maxItems !== undefined)
      out.push([
        `${show(path)} has ${s.maxItems + 1} items`,
        at(Array(s.maxItems + 1).fill(sample(s.items))),
      ]);
    const itemPath = [...path, 0];
    out.push(...mutations(s.items, setAt(base, itemPath, sample(s.items)), part, itemPath, depth + 1));
  }
  return out;
}

const BIG = 1024 * 1024;

/** Percent-encodes a path segment; a lone surrogate goes out as the bytes of its WTF-8 form. */
function encodeSegment(v: string): string {
  return [...v]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        const c = ch.charCodeAt(0);
        return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
    })
    .join('');
}

/** Whole-body cases for JSON routes: not JSON, not an object, wrong content type, too big, too deep. */
function bodyLevelCases(base: unknown, req: ApiRequest): FuzzCase[] {
  const raw = (label: string, payload: string | Buffer, contentType = 'application/json'): FuzzCase => ({
    label,
    req: { ...req, body: undefined, raw: { payload, contentType } },
    judge: { kind: 'reject' },
  });
  const parsed = (label: string, value: unknown): FuzzCase => ({
    label,
    req: { ...req, body: value },
    judge: { kind: 'parsed', part: 'body', value },
  });
  const text = JSON.stringify(base);
  return [
    parsed('body is an array', []),
    parsed('body is a string', 'name'),
    parsed('body is a number', 42),
    parsed('body is null', null),
    parsed('body is an empty object', {}),
    raw('body is truncated JSON', text.slice(0, Math.max(1, text.length - 3))),
    raw('body uses single quotes', text.replace(/"/g, "'")),
    raw('body is NaN', 'NaN'),
    raw('body is empty', ''),
    raw('body is a NUL byte', '\u0000'),
    // Parsers may skip a BOM or keep the last of two keys: then the parsed value is what gets judged.
    { ...raw('body has a BOM', `\ufeff${text}`), judge: { kind: 'parsed', part: 'body', value: base } },
    raw('body is form-encoded', 'name=x&userId=y', 'application/x-www-form-urlencoded'),
    raw('body is text/plain JSON', text, 'text/plain'),
    raw('body is XML', '<name>x</name>', 'application/xml'),
    raw('body is binary', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]), 'application/octet-stream'),
    raw('body has __proto__', text.replace(/^\{/, '{"__proto__":{"isAdmin":true},')),
    raw(
      'body has constructor.prototype',
      text.replace(/^\{/, '{"constructor":{"prototype":{"isAdmin":true}},'),
    ),
    {
      ...raw('body repeats a key with an operator', text.replace(/\}$/, ',"userId":{"$ne":null}}')),
      judge: { kind: 'parsed', part: 'body', value: { ...(base as object), userId: { $ne: null } } },
    },
    raw('body of 1 MB', JSON.stringify({ ...(base as object), pad: 'x'.repeat(BIG) })),
    raw(
      'body of 1 MB of one string field',
      text.replace(/"([^"]*)"\s*:\s*"[^"]*"/, (_m, k: string) => `"${k}":"${'a'.repeat(BIG)}"`),
    ),
    raw('body nested 100,000 deep', `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
    {
      ...raw('body has a huge number', text.replace(/^\{/, '{"n":1e400,')),
      judge: { kind: 'parsed', part: 'body', value: { n: Infinity, ...(base as object) } },
    },
  ];
}

/** Query-level cases: operator keys, prototype keys, duplicated and over-long parameters. */
function queryLevelCases(base: Record<string, string | string[]>, req: ApiRequest): FuzzCase[] {
  const q = (label: string, query: Record<string, string | string[]>): FuzzCase => ({
    label,
    req: { ...req, query },
    judge: { kind: 'parsed', part: 'query', value: query },
  });
  const first = Object.keys(base)[0];
  const cases = [
    q('query has __proto__', { ...base, ['__proto__']: 'x' }),
    q('query has constructor[prototype]', { ...base, 'constructor[prototype][isAdmin]': 'true' }),
    q('query is empty', {}),
    q('query has 200 unknown parameters', {
      ...base,
      ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, 'v'])),
    }),
  ];
  if (first) {
    const rest = { ...base };
    delete rest[first];
    cases.push(q(`query ${first}[$ne]`, { ...rest, [`${first}[$ne]`]: 'x' }));
    cases.push(q(`query ${first} of 1 MB`, { ...base, [first]: 'q'.repeat(BIG) }));
  }
  return cases;
}

/**
 * Every malformed and hostile request for a route, built from its schema around a valid request.
 * The list is long; the fuzz picks a fixed, seeded subset of it per route.
 */
export function fuzzCases(r: RouteDef, valid: ApiRequest, hints: Record<string, unknown>): FuzzCase[] {
  const out: FuzzCase[] = [];
  if (r.schema.body) {
    const schema = r.schema.body as JsonSchema;
    for (const [i, option] of options(schema).entries()) {
      const base = i === 0 ? valid.body : sample(option, hints);
      for (const [label, value] of mutations(option, base, 'body')) {
        out.push({
          label: options(schema).length > 1 ? `form ${i + 1}: ${label}` : label,
          req: { ...valid, body: value },
          judge: { kind: 'parsed', part: 'body', value },
        });
      }
    }
    out.push(...bodyLevelCases(valid.body, valid));
  }
  if (r.schema.querystring) {
    const schema = r.schema.querystring as JsonSchema;
    const base = valid.query ?? {};
    for (const [label, value] of mutations(schema, base, 'query')) {
      const query = toQuery(value);
      out.push({ label, req: { ...valid, query }, judge: { kind: 'parsed', part: 'query', value: query } });
    }
    out.push(...queryLevelCases(base, valid));
  }
  if (!r.schema.body && !r.schema.querystring) {
    out.push(...queryLevelCases({}, valid));
    if (r.method !== 'GET') out.push(...bodyLevelCases({}, valid));
  }
  if (r.path.includes(':')) {
    for (const [name, v] of [...HOSTILE_STRINGS.slice(0, 12), ['very long', 'p'.repeat(5000)] as const]) {
      const path = `/api${r.path.replace(/:(\w+)/g, () => encodeSegment(v))}`;
      out.push({
        label: `path parameter hostile: ${name}`,
        req: { ...valid, path },
        judge: { kind: 'reject' },
      });
    }
  }
  return out;
}
