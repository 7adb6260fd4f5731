import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { AppError, BaseConfig, ConfigError, createBaseApp, parseConfig, withBase } from './index.ts';

describe('config from the environment', () => {
  it('works with no variables at all (the embedded default)', () => {
    const c = parseConfig(BaseConfig, {});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      DATA_DIR: '.data/pglite',
      FIREBASE_PROJECT_ID: 'demo-college-tracker',
    });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('converts numbers and booleans from strings', () => {
    const schema = withBase({
      WORKERS: Type.Integer({ default: 2 }),
      ENABLED: Type.Boolean({ default: false }),
    });
    expect(parseConfig(schema, { PORT: '9000', WORKERS: '8', ENABLED: 'true' })).toMatchObject({
      PORT: 9000,
      WORKERS: 8,
      ENABLED: true,
    });
  });

  it('lists every bad variable at once, and never echoes a secret', () => {
    let error: unknown;
    try {
      parseConfig(BaseConfig, {
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
        INTERNAL_TOKEN: 'short-secret',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'PORT',
      'LOG_LEVEL',
      'DATABASE_URL',
      'INTERNAL_TOKEN',
    ]);
    expect(problems.join('\n')).not.toContain('short-secret');
  });

  it('never echoes a URL with credentials in it, whatever its name', () => {
    // A relay URL mistyped by an operator (smpt://) carries its password.
    expect(() => parseConfig(BaseConfig, { REDIS_URL: 'redsi://:hunter2-password@redis:6379' })).toThrow(
      /REDIS_URL: must match pattern/,
    );
    try {
      parseConfig(BaseConfig, { REDIS_URL: 'redsi://:hunter2-password@redis:6379' });
    } catch (e) {
      expect((e as ConfigError).problems.join('\n')).not.toContain('hunter2');
    }
    // A URL without credentials is still quoted, which is what helps an operator fix it.
    expect(() => parseConfig(BaseConfig, { REDIS_URL: 'redsi://redis:6379' })).toThrow(
      /got "redsi:\/\/redis:6379"/,
    );
  });

  it('refuses placeholder, short and repetitive secrets, says how to make one, and never echoes them', () => {
    const problemsFor = (INTERNAL_TOKEN: string) => {
      try {
        parseConfig(BaseConfig, { INTERNAL_TOKEN });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    const cases: Array<[string, RegExp]> = [
      ['change-me-to-a-long-random-string', /placeholder/],
      ['changeme-changeme-changeme-changeme', /placeholder/],
      ['my-example-internal-token-0123456789', /placeholder/],
      ['super-secret-value-for-the-services-000', /placeholder/],
      ['password-password-password-password', /placeholder/],
      ['0f3a9c1d2b7e4f60a8b5c3d1e9f7a2b', /too short \(31 characters; at least 32\)/],
      ['a'.repeat(64), /repeats/],
      ['abcd'.repeat(12), /repeats/],
    ];
    for (const [value, why] of cases) {
      const problems = problemsFor(value);
      expect(problems, value).toHaveLength(1);
      expect(problems[0], value).toMatch(/^INTERNAL_TOKEN: /);
      expect(problems[0], value).toMatch(why);
      expect(problems[0], value).toContain('openssl rand -hex 32');
      expect(problems[0], value).not.toContain(value);
    }
    // What `openssl rand -hex 32` makes is fine.
    expect(problemsFor(randomBytes(32).toString('hex'))).toEqual([]);
  });

  it('refuses the Auth emulator in production, where it would accept unsigned tokens', () => {
    const emulator = { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
    expect(() => parseConfig(BaseConfig, { ...emulator, NODE_ENV: 'development' })).not.toThrow();
    expect(() => parseConfig(BaseConfig, { ...emulator, NODE_ENV: 'production' })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST: must be empty when NODE_ENV=production/,
    );
    expect(() => parseConfig(BaseConfig, { NODE_ENV: 'production' })).not.toThrow();
  });
});

describe('the one error handler', () => {
  function appWithLogs() {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const app = createBaseApp({ name: 'test', internalToken: 'x'.repeat(32), logStream, logLevel: 'error' });
    app.get('/boom', async () => {
      throw new Error('connection string postgres://secret@db');
    });
    app.get('/app-error', async () => {
      throw new AppError('CONFLICT', 'That item changed; reload and try again.');
    });
    app.post('/typed', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }));
    app.get('/down', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    return { app, lines };
  }

  it('sends 5xx without details and logs them', async () => {
    const { app, lines } = appWithLogs();
    const r = await app.inject({ url: '/boom' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({
      success: false,
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL',
    });
    expect(r.body).not.toContain('secret');
    expect(lines.join('')).toContain('postgres://secret@db');
  });

  it('sends an AppError with its message and code', async () => {
    const { app } = appWithLogs();
    const r = await app.inject({ url: '/app-error' });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({
      success: false,
      message: 'That item changed; reload and try again.',
      code: 'CONFLICT',
    });
  });

  it('refuses a body of the wrong type instead of converting it', async () => {
    const { app } = appWithLogs();
    const r = await app.inject({ method: 'POST', url: '/typed', payload: { n: '12' } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      success: false,
      code: 'VALIDATION_ERROR',
      message: 'Invalid request: body.n must be integer',
    });
  });

  it('answers 503 with a clear message when a dependency is down', async () => {
    const { app } = appWithLogs();
    const r = await app.inject({ url: '/down' });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: expect.stringContaining('temporarily unavailable'),
    });
  });

  it('answers unknown routes with a 404 in the same shape, and carries the request id', async () => {
    const { app } = appWithLogs();
    const r = await app.inject({ url: '/nope', headers: { 'x-request-id': 'req-123' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(r.headers['x-request-id']).toBe('req-123');
  });
});

describe('request logs on standard output', () => {
  it('keeps every line, whole, when two apps log under load and the process exits at once', async () => {
    // Lines are written asynchronously: what is still buffered at exit must be flushed, and two apps of
    // one process (the embedded run) must never cut into each other's lines.
    const { spawnSync } = await import('node:child_process');
    const script = `
      import { createBaseApp } from './packages/service-kit/src/index.ts';
      const apps = ['one', 'two'].map((name) => createBaseApp({ name, internalToken: 'x'.repeat(32), accessLog: 'full' }));
      for (const app of apps) app.get('/hi', async () => ({ text: 'y'.repeat(300) }));
      await Promise.all(apps.map((app) => Promise.all(Array.from({ length: 1500 }, () => app.inject({ url: '/hi' })))));
      process.exit(0);
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../../..', import.meta.url).pathname,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    const parsed = lines.map((l) => JSON.parse(l) as { service: string; msg: string });
    const done = (s: string) => parsed.filter((p) => p.service === s && p.msg === 'request completed').length;
    expect([done('one'), done('two')]).toEqual([1500, 1500]);
  }, 60_000);
});
