import { createVerifiedUser, distributedSuite } from '@ct/testkit';
import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';

// The distributed run proxies through the gateway: the feed must stay text/calendar (not JSON) on the way.
const { stack } = distributedSuite({
  label: 'udfeed',
  basePort: Number(process.env.TEST_USER_DATA_DISTRIBUTED_PORT ?? 17240),
  only: ['user-data'],
});

describe('private calendar feed in the distributed run', () => {
  it('reaches calendar apps as text/calendar through the gateway', async () => {
    const user = await createVerifiedUser({ name: 'Distributed' });
    const post = (path: string, body: unknown) =>
      fetch(`${stack.gatewayUrl}/api${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (await post('/add-note', { note: { title: 'Portfolio', content: 'Upload', deadline: '2026-12-01' } }))
        .status,
    ).toBe(200);
    const created = (await (await post('/create-calendar-feed', {})).json()) as { data: { path: string } };
    const feed = await fetch(`${stack.gatewayUrl}${created.data.path}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(feed.headers.get('cache-control')).toContain('private');
    const events = Object.values(ical.sync.parseICS(await feed.text())).filter(
      (c): c is VEvent => c?.type === 'VEVENT',
    );
    expect(events.map((e) => String(e.summary))).toEqual(['Portfolio']);
    // Errors keep the JSON shape.
    const gone = await fetch(`${stack.gatewayUrl}/api/calendar/not-a-token/deadlines.ics`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await gone.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
