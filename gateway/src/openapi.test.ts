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

  it('names every operation once, documents its 4xx answers, and says which need no token', async () => {
    const r = await gw.api<{ paths: Record<string, Record<string, Record<string, unknown>>> }>(
      'GET',
      '/api/docs/json',
    );
    const ops = Object.entries(r.body.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(ops.length).toBeGreaterThan(60);
    const ids = ops.map((o) => o.op.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const without4xx = ops.filter(
      (o) => !Object.keys(o.op.responses as object).some((c) => /^4\d\d$/.test(c)),
    );
    expect(without4xx.map((o) => o.key)).toEqual([]);
    const byKey = new Map(ops.map((o) => [o.key, o.op]));
    const at = (route: (typeof ROUTES)[number]) =>
      byKey.get(`${route.method} /api${route.path}`.replace(/:(\w+)/g, '{$1}'))!;
    for (const route of ROUTES.filter((x) => x.access === 'public')) {
      expect(at(route).security, route.path).toEqual([]);
    }
    for (const route of ROUTES.filter((x) => x.access === 'user' || x.access === 'admin')) {
      expect(at(route).security, route.path).toBeUndefined();
      expect(Object.keys(at(route).responses as object), route.path).toContain('401');
    }
    // The table's own names: a generated client calls getNotes, not getApiGetNotes.
    expect(byKey.get('GET /api/get-notes')?.operationId).toBe('getNotes');
    for (const open of ['GET /api/public-config', 'POST /api/signed-out'])
      expect(byKey.get(open)?.security, open).toEqual([]);
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
