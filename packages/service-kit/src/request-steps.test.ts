// The gateway's per-request steps (metrics, security headers, rate limit, ambiguous paths) run in the
// app's one onRequest hook, after the identity: in the order added, and the first refusal ends them.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createBaseApp } from './app.ts';
import { AppError } from './errors.ts';
import { addRequestStep } from './request-steps.ts';

describe('request steps', () => {
  it('run after the identity, in order, in one hook; the first error answers and ends them', async () => {
    const app = createBaseApp({ name: 'test', internalToken: 'x'.repeat(32), logLevel: 'silent' });
    const seen: string[] = [];
    addRequestStep(app, (request, reply) => {
      seen.push(`a:${request.internal}`);
      reply.header('x-step-a', '1');
    });
    addRequestStep(app, (request) => {
      seen.push('b');
      if (request.url.includes('refuse')) return new AppError('VALIDATION_ERROR', 'refused', 400);
      return undefined;
    });
    addRequestStep(app, () => {
      seen.push('c');
    });
    app.get('/x', async () => ({ ok: true }));
    app.get('/refuse', async () => ({ ok: true }));
    const ok = await app.inject('/x');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-step-a']).toBe('1');
    expect(seen).toEqual(['a:false', 'b', 'c']);

    seen.length = 0;
    const refused = await app.inject('/refuse');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refused.headers['x-step-a']).toBe('1');
    expect(seen).toEqual(['a:false', 'b']);
    await app.close();
  });

  it('an app without the one hook gets a hook of its own for a step', async () => {
    const app = Fastify();
    addRequestStep(app, (_request, reply) => {
      reply.header('x-step', 'own');
    });
    app.get('/', async () => 'hi');
    const res = await app.inject('/');
    expect(res.headers['x-step']).toBe('own');
    await app.close();
  });
});
