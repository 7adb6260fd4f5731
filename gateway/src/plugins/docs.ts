import * as contracts from '@ct/contracts';
import { ApiError, ROUTES, type RouteDef } from '@ct/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.ts';

/** Each route of the table by `METHOD /api/path`, with the name it is exported under (its operationId). */
const TABLE = (() => {
  const names = new Map<unknown, string>(Object.entries(contracts).map(([name, value]) => [value, name]));
  return new Map<string, { def: RouteDef; name: string }>(
    ROUTES.filter((r) => r.access !== 'internal').map((def) => [
      `${def.method} /api${def.path}`,
      { def, name: names.get(def) ?? '' },
    ]),
  );
})();

/** An operationId for a route outside the table: `GET /api/public-config` is `publicConfig`. */
function idFromPath(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('');
  return method === 'GET' ? camel : `${method.toLowerCase()}${camel[0]!.toUpperCase()}${camel.slice(1)}`;
}

const problem = (description: string) => ({
  description,
  content: { 'application/json': { schema: ApiError } },
});

/**
 * What the API document says of one operation beyond its own schema (issue 47.8): an `operationId`
 * (generated clients name their calls from it: the route table's export name), the 4xx answers every
 * operation can give (bad input, no token, another student's data, the rate limit) where its schema does
 * not describe them, and `security: []` for the operations anyone may call.
 */
export function describeOperation(
  method: string,
  url: string,
  schema: Record<string, unknown>,
  access: string | undefined,
): Record<string, unknown> {
  const row = TABLE.get(`${method} ${url}`);
  const isPublic = (row?.def.access ?? access) === 'public' || Array.isArray(schema.security);
  const responses = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
  const add = (code: string, description: string) => {
    if (!(code in responses)) responses[code] = problem(description);
  };
  if (schema.body || schema.querystring || schema.params)
    add('400', 'The input does not match the schema: the message says what to fix');
  if (!isPublic) add('401', 'No valid ID token (Authorization: Bearer <Firebase ID token>)');
  if (row?.def.access === 'admin') add('403', 'The caller is not an admin');
  else if (!isPublic && /\buserId\b/.test(JSON.stringify(schema.querystring ?? schema.body ?? {})))
    add('403', "A userId other than the caller's own");
  add('429', 'Too many requests: Retry-After says when to try again');
  return {
    ...schema,
    operationId: row?.name || idFromPath(method, url),
    response: responses,
    ...(isPublic ? { security: [] } : {}),
  };
}

/** Keywords of the schemas that are ours (ajv's), not OpenAPI's: published as `x-` extensions. */
const OWN_KEYWORDS = new Set(['errorMessage']);

/**
 * A schema as OpenAPI 3.0 allows it: ajv's `errorMessage` (the messages our validation answers with)
 * becomes `x-errorMessage`, at every depth. The names inside `properties` are field names, never renamed.
 */
export function toOpenApiSchema(node: unknown, fieldNames = false): unknown {
  if (Array.isArray(node)) return node.map((n) => toOpenApiSchema(n));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    const key = !fieldNames && OWN_KEYWORDS.has(k) ? `x-${k}` : k;
    out[key] = toOpenApiSchema(v, !fieldNames && (k === 'properties' || k === 'patternProperties'));
  }
  return out;
}

/** OpenAPI for every route registered after it, browsable at /api/docs (a valid OpenAPI 3.0 document). */
export default fp<{ config: GatewayConfig }>(async (app, { config }) => {
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.PRODUCT_NAME} API`, version: '1.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' } },
      },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url, route }) => {
      const access = (route.config as { access?: string } | undefined)?.access;
      const health = (schema as { tags?: string[] } | undefined)?.tags?.includes('health');
      const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
      return {
        schema: describeOperation(method, url, { ...(schema ?? {}) }, health ? 'public' : access) as never,
        url,
      };
    },
    transformObject: (doc) =>
      toOpenApiSchema('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
