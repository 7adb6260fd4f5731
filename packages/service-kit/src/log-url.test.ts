// Issue 35 item 8: request logs kept uids and college names (query strings) after an account was gone,
// and the calendar link's secret followed by %00 was written whole.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createBaseApp } from './app.ts';
import { logUrl } from './log-url.ts';

/** An app with a calendar-like route and one with a query, and the lines it logs. */
function appWithLogs(logFullUrls?: boolean) {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const app = createBaseApp({
    name: 'test',
    internalToken: 'x'.repeat(32),
    logStream,
    logLevel: 'info',
    // Every line: a sampled access log (the default) keeps only the first of a route's successes a minute.
    accessLog: 'full',
    ...(logFullUrls === undefined ? {} : { logFullUrls }),
  });
  app.get('/api/calendar/:token/deadlines.ics', async () => 'BEGIN:VCALENDAR');
  app.get('/api/admin/profile-notes', async () => ({ ok: true }));
  /** The `url` of each request's line, in order. */
  const urls = () =>
    lines
      .map((l) => JSON.parse(l) as { msg?: string; req?: { url?: string } })
      .filter((l) => l.msg === 'request completed' || l.req)
      .map((l) => l.req?.url);
  return { app, lines, urls };
}

const token = () => randomBytes(32).toString('base64url');
const UID = 'Zq3uK9aXb2LmN4oP5rS6tU7vW8x1';

describe('request log lines', () => {
  it('carry the path and the names of query parameters, never their values, by default', async () => {
    const { app, lines, urls } = appWithLogs();
    const r = await app.inject({
      url: `/api/admin/profile-notes?filterUserId=${UID}&name=Northfield%20College&limit=50`,
    });
    expect(r.statusCode).toBe(200);
    expect(urls()).toEqual(['/api/admin/profile-notes?filterUserId=…&name=…&limit=…']);
    const log = lines.join('');
    expect(log).not.toContain(UID);
    expect(log).not.toContain('Northfield');
  });

  it('keep the whole query with LOG_FULL_URLS, the secret of a link still masked', async () => {
    const { app, urls } = appWithLogs(true);
    const secret = token();
    await app.inject({ url: `/api/admin/profile-notes?filterUserId=${UID}&t=${secret}` });
    expect(urls()).toEqual([`/api/admin/profile-notes?filterUserId=${UID}&t=[redacted]`]);
  });

  it("mask a calendar link's secret whatever follows it: /, %00, ;, a dot, or nothing", async () => {
    const { app, lines, urls } = appWithLogs();
    const secrets = Array.from({ length: 6 }, token);
    const sent = [
      `/api/calendar/${secrets[0]}/deadlines.ics`,
      `/api/calendar/${secrets[1]}%00/deadlines.ics`,
      `/api/calendar/${secrets[2]}%00`,
      `/api/calendar/${secrets[3]};x/deadlines.ics`,
      `/api/calendar/${secrets[4]}.ics`,
      `/api/calendar/${secrets[5]}`,
    ];
    for (const url of sent) await app.inject({ url });
    expect(urls()).toEqual([
      '/api/calendar/[redacted]/deadlines.ics',
      '/api/calendar/[redacted]%00/deadlines.ics',
      '/api/calendar/[redacted]%00',
      '/api/calendar/[redacted];x/deadlines.ics',
      '/api/calendar/[redacted].ics',
      '/api/calendar/[redacted]',
    ]);
    const log = lines.join('');
    for (const s of secrets) expect(log).not.toContain(s.slice(0, 20));
  });

  it('mask a secret sent with some of its characters percent-encoded (the router decodes them)', async () => {
    const { app, lines, urls } = appWithLogs();
    const secret = token();
    const encoded = [...secret]
      .map((c, i) => (i % 3 === 0 ? `%${c.charCodeAt(0).toString(16)}` : c))
      .join('');
    const r = await app.inject({ url: `/api/calendar/${encoded}/deadlines.ics` });
    expect(r.statusCode).toBe(200);
    expect(urls()).toEqual(['/api/calendar/[redacted]/deadlines.ics']);
    expect(lines.join('')).not.toContain(encoded.slice(0, 20));
  });
});

describe('logUrl', () => {
  it('leaves short paths and words alone, and a bare ? or & adds nothing', () => {
    expect(logUrl('/api/colleges/search')).toBe('/api/colleges/search');
    expect(logUrl('/api/x?')).toBe('/api/x');
    expect(logUrl('/api/x?a=1&&b')).toBe('/api/x?a=…&b=…');
    expect(logUrl('/api/x?a=1', true)).toBe('/api/x?a=1');
  });
});
