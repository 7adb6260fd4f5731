// ACCESS_LOG: by default a request's line is written when it failed (4xx, 5xx) or as a sample of its kind,
// and every request is counted in a summary line; `full` writes every line.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BaseConfig, createBaseApp, parseConfig, type AccessLogMode } from './index.ts';

interface Line {
  msg: string;
  res?: { statusCode: number };
  requests?: Record<string, { n: number; msMean: number; msMax: number }>;
  total?: number;
}

async function serve(accessLog: AccessLogMode | undefined, oks: number, missing: number) {
  const lines: Line[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
      cb();
    },
  });
  const app = createBaseApp({
    name: 'test',
    internalToken: 'x'.repeat(32),
    logStream,
    ...(accessLog ? { accessLog } : {}),
  });
  app.get('/hi', async () => ({ hi: true }));
  for (let i = 0; i < oks; i++) expect((await app.inject({ url: '/hi?who=someone' })).statusCode).toBe(200);
  for (let i = 0; i < missing; i++) expect((await app.inject({ url: '/nope' })).statusCode).toBe(404);
  const beforeClose = lines.filter((l) => l.msg === 'request completed');
  await app.close();
  return { completed: beforeClose, summaries: lines.filter((l) => l.msg === 'requests summary') };
}

describe('access log', () => {
  it('by default keeps every failed request, samples the rest, and counts all of them', async () => {
    const { completed, summaries } = await serve(undefined, 250, 5);
    const by = (status: number) => completed.filter((l) => l.res?.statusCode === status).length;
    expect(by(404)).toBe(5);
    expect(by(200)).toBe(3); // the first of the period, then one in 100: the 1st, 101st and 201st
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.total).toBe(255);
    expect(summaries[0]!.requests!['GET /hi 200']!.n).toBe(250);
    expect(summaries[0]!.requests!['GET unmatched 404']!.n).toBe(5);
    // The route's pattern, never the URL: what a student sent stays out of the summary.
    expect(JSON.stringify(summaries[0])).not.toContain('someone');
  });

  it('writes a line for every request with ACCESS_LOG=full', async () => {
    const { completed, summaries } = await serve('full', 250, 5);
    expect(completed).toHaveLength(255);
    expect(summaries).toHaveLength(0);
  });

  it('is sampled unless set, and takes only its two values', () => {
    expect(parseConfig(BaseConfig, {}).ACCESS_LOG).toBe('sampled');
    expect(parseConfig(BaseConfig, { ACCESS_LOG: 'full' }).ACCESS_LOG).toBe('full');
    expect(() => parseConfig(BaseConfig, { ACCESS_LOG: 'everything' })).toThrow(/ACCESS_LOG/);
  });
});
