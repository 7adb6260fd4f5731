import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.ts';

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
    transformObject: (doc) =>
      toOpenApiSchema('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
