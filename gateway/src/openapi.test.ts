// Issue 37.7: /api/docs/json says `openapi: 3.0.3`, so it must be a document a strict validator accepts.
// ajv's `errorMessage` keyword (the messages our validation answers with) is published as
// `x-errorMessage`, an extension OpenAPI allows; a field that happens to be called errorMessage keeps its
// name.
import SwaggerParser from '@apidevtools/swagger-parser';
import { ROUTES } from '@ct/contracts';
import { gatewaySuite } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { toOpenApiSchema } from './plugins/docs.ts';

const { gw } = gatewaySuite({ env: { RUN_WORKER: 'false' } });

describe('the published API description', () => {
  it('is a valid OpenAPI 3.0 document, with every public route in it', async () => {
    const r = await gw.api<Record<string, unknown>>('GET', '/api/docs/json');
    expect(r.status).toBe(200);
    const doc = structuredClone(r.body);
    // Throws, naming each problem, when the document is not valid OpenAPI.
    const api = (await SwaggerParser.validate(doc as never)) as { openapi: string; paths: object };
    expect(api.openapi).toMatch(/^3\.0\./);
    const published = Object.keys(r.body.paths as object);
    const external = ROUTES.filter((x) => x.access !== 'internal').map((x) =>
      `/api${x.path}`.replace(/:(\w+)/g, '{$1}'),
    );
    expect(external.filter((p) => !published.includes(p))).toEqual([]);
    expect(JSON.stringify(r.body)).not.toContain('"errorMessage"');
    expect(JSON.stringify(r.body)).toContain('"x-errorMessage"');
  });

  it('keeps a field called errorMessage, and moves the keyword at every depth', () => {
    const schema = {
      type: 'object',
      errorMessage: { required: 'top' },
      properties: {
        errorMessage: { type: 'string', errorMessage: 'inner' },
        list: { type: 'array', items: [{ type: 'string', errorMessage: 'deep' }] },
      },
    };
    expect(toOpenApiSchema(schema)).toEqual({
      type: 'object',
      'x-errorMessage': { required: 'top' },
      properties: {
        errorMessage: { type: 'string', 'x-errorMessage': 'inner' },
        list: { type: 'array', items: [{ type: 'string', 'x-errorMessage': 'deep' }] },
      },
    });
  });
});
