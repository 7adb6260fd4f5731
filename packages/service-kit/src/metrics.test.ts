// /metrics: the request counts and latency histogram, counted per route as plain numbers and read at
// scrape time, say what Prometheus expects and keep counting across scrapes.
import { describe, expect, it } from 'vitest';
import { createBaseApp } from './index.ts';

const TOKEN = 'm'.repeat(8) + 'etrics-token-for-the-test-0123456789';

/** The value of one sample line, by metric name and the labels it must carry. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('metrics', () => {
  it('counts requests by route and status, 5xx as errors, and their latencies, across scrapes', async () => {
    const app = createBaseApp({
      name: 'test',
      internalToken: 'x'.repeat(32),
      metricsToken: TOKEN,
      logLevel: 'silent',
    });
    app.get('/hi', async () => ({ hi: true }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    const scrape = async () => {
      const r = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.statusCode).toBe(200);
      return r.body;
    };
    for (let i = 0; i < 3; i++) await app.inject({ url: '/hi' });
    await app.inject({ url: '/boom' });
    await app.inject({ url: '/nowhere' });

    let text = await scrape();
    expect(text).toContain('# TYPE college_ready_http_request_duration_seconds histogram');
    const hi = { method: 'GET', route: '/hi', service: 'test' };
    expect(sample(text, 'college_ready_http_requests_total', { ...hi, status: '200' })).toBe(3);
    expect(sample(text, 'college_ready_http_requests_total', { route: '/boom', status: '500' })).toBe(1);
    expect(sample(text, 'college_ready_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'college_ready_http_request_errors_total', { route: '/boom' })).toBe(1);
    expect(sample(text, 'college_ready_http_request_errors_total', { route: '/hi' })).toBeUndefined();
    expect(sample(text, 'college_ready_http_request_duration_seconds_count', hi)).toBe(3);
    expect(sample(text, 'college_ready_http_request_duration_seconds_bucket', { ...hi, le: '+Inf' })).toBe(3);
    expect(sample(text, 'college_ready_http_request_duration_seconds_sum', hi)).toBeGreaterThan(0);
    const buckets = text
      .split('\n')
      .filter(
        (l) =>
          l.startsWith('college_ready_http_request_duration_seconds_bucket{') && l.includes('route="/hi"'),
      )
      .map((l) => Number(l.split(' ').at(-1)));
    expect(buckets).toHaveLength(14);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b)); // cumulative

    await app.inject({ url: '/hi' });
    text = await scrape();
    expect(sample(text, 'college_ready_http_requests_total', { ...hi, status: '200' })).toBe(4);
    expect(sample(text, 'college_ready_http_request_errors_total', { route: '/boom' })).toBe(1);
    expect(sample(text, 'college_ready_http_request_duration_seconds_count', hi)).toBe(4);
    await app.close();
  });
});
