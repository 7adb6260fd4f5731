// Issue 50, items 1, 2 and 6: reminders are pushed only to push services (never into our network), a
// device's subscription cannot be taken by an account that does not hold its keys, a student has at most
// ten devices, and push services that never answer cannot hold back another student's reminder.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createVerifiedUser,
  startFakePushService,
  startTestGateway,
  type FakePushService,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PUSH_DEVICES } from '../repositories/reminders.ts';
import { collegeWith, seedColleges } from '../routes/test-helpers.ts';
import { REFUSED, webPushSender } from './push.ts';
import { isInwardAddress, publicOnlyLookup, pushServiceRule, refusedEndpoint } from './push-endpoint.ts';
import { nonOverlapping, sendDueReminders } from './send-reminders.ts';
import { jobReplica } from './test-replica.ts';

/** A local server that records each request and answers with `answer` (or never, when it returns null). */
async function localServer(
  answer: (req: http.IncomingMessage) => { status: number; headers?: object } | null,
) {
  const hits: string[] = [];
  const events: string[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    events.push('hit');
    req.resume();
    const a = answer(req);
    if (a) res.writeHead(a.status, a.headers as http.OutgoingHttpHeaders).end();
    else {
      open.add(res);
      req.socket.on('close', () => events.push('hung request closed'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hits,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let gw: TestGateway;
let push: FakePushService;
let hang: Awaited<ReturnType<typeof localServer>>;
let redirect: Awaited<ReturnType<typeof localServer>>;
let target: Awaited<ReturnType<typeof localServer>>;
const COLLEGE = 'Push Guard College';
const college = collegeWith(COLLEGE);
const DAY14 = new Date('2026-10-18T14:30:00Z');
const vapid = webpush.generateVAPIDKeys();
let admitted = '';

beforeAll(async () => {
  [push, hang, target] = await Promise.all([
    startFakePushService(),
    localServer(() => null),
    localServer(() => ({ status: 201 })),
  ]);
  redirect = await localServer(() => ({ status: 307, headers: { location: `${target.url}/stolen` } }));
  admitted = [push.url, hang.url, redirect.url].join(',');
  gw = await startTestGateway({
    queue: 'memory',
    env: { REMINDER_EVERY_MS: '0', PUSH_SERVICE_HOSTS: admitted },
  });
  await seedColleges(gw.db, [college]);
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([push?.close(), hang?.close(), redirect?.close(), target?.close()]);
});

const replica = () =>
  jobReplica(
    gw.db,
    { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, PUSH_SERVICE_HOSTS: admitted },
    [college],
  );
const keysOf = (name: string) => push.device(name).keys;
const subscribe = (user: TestUser, endpoint: string, keys = keysOf(`${user.uid}-${endpoint}`)) =>
  gw.api<{ success: boolean; message: string; code?: string; data?: { devices: number } }>(
    'POST',
    '/api/subscribe-reminders',
    { token: user.idToken, body: { subscription: { endpoint, keys } } },
  );
const devices = async (user: TestUser) =>
  (
    await gw.api<{ data: { devices: number } }>('GET', '/api/get-reminder-settings', {
      token: user.idToken,
    })
  ).body.data.devices;
const storedEndpoints = async () =>
  (await gw.db.query<{ endpoint: string }>('SELECT endpoint FROM user_data.push_subscription')).rows.map(
    (r) => r.endpoint,
  );

describe('push endpoints go only to push services (50.1)', () => {
  it('refuses inward, plain-http and unknown endpoints with a clear 400, storing nothing', async () => {
    const eve = await createVerifiedUser({ name: 'Eve' });
    const before = await storedEndpoints();
    const refused: Array<[string, string]> = [
      ['http://127.0.0.1:6379/x', 'A push address must use https.'],
      ['https://127.0.0.1/x', 'A push address must name a push service, not an IP address.'],
      [
        'https://169.254.169.254/latest/meta-data',
        'A push address must name a push service, not an IP address.',
      ],
      ['https://10.0.0.7/push', 'A push address must name a push service, not an IP address.'],
      ['https://[::1]/push', 'A push address must name a push service, not an IP address.'],
      ['http://fcm.googleapis.com/fcm/send/abc', 'A push address must use https.'],
      ['https://fcm.googleapis.com:8443/fcm/send/abc', 'A push address must use the standard https port.'],
      [
        'https://user:pw@fcm.googleapis.com/fcm/send/abc',
        'A push address must not carry a user name or password.',
      ],
      [
        'https://redis.internal.svc/x',
        "This browser's push service is not one College Ready sends reminders through.",
      ],
      [
        'https://fcm.googleapis.com.evil.example/x',
        "This browser's push service is not one College Ready sends reminders through.",
      ],
      [
        'https://push.services.mozilla.com.evil.example/x',
        "This browser's push service is not one College Ready sends reminders through.",
      ],
    ];
    for (const [endpoint, message] of refused) {
      const r = await subscribe(eve, endpoint);
      expect(r.status, endpoint).toBe(400);
      expect(r.body, endpoint).toMatchObject({ success: false, code: 'VALIDATION_ERROR', message });
    }
    expect(await storedEndpoints()).toEqual(before);
    expect(await devices(eve)).toBe(0);
  });

  it("admits the browsers' own push services", () => {
    const rule = pushServiceRule(undefined);
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://wns2-by3p.notify.windows.com/w/?token=BQYAAA',
    ]) {
      expect(refusedEndpoint(endpoint, rule), endpoint).toBeNull();
    }
    // An operator's host admits https on 443 only; an origin admits exactly that origin.
    const extra = pushServiceRule('push.example.org, http://127.0.0.1:4100');
    expect(refusedEndpoint('https://push.example.org/x', extra)).toBeNull();
    expect(refusedEndpoint('http://push.example.org/x', extra)).not.toBeNull();
    expect(refusedEndpoint('http://127.0.0.1:4100/x', extra)).toBeNull();
    expect(refusedEndpoint('http://127.0.0.1:4101/x', extra)).not.toBeNull();
  });

  it('refuses, after resolution, a known-looking host whose address is inward', async () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isInwardAddress(a), a).toBe(true);
    }
    expect(isInwardAddress('142.250.74.10')).toBe(false);
    expect(isInwardAddress('2a00:1450:4001:80b::200a')).toBe(false);
    // An operator admits a host name that resolves to this machine: the connection is refused.
    const lookup = publicOnlyLookup(pushServiceRule('localhost'));
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('EPUSHINWARD');
    const sender = webPushSender(
      { subject: 'mailto:x@example.org', publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      pushServiceRule('localhost'),
    );
    const status = await sender(
      { endpoint: `https://localhost:443/push`, user_id: 'u', ...keysOf('inward') },
      { title: 't', body: 'b', url: '/', tag: 't' },
    );
    expect(status).toBe(0);
  });

  it('checks again at send time: a stored endpoint the rule refuses is dropped, never called', async () => {
    const old = await createVerifiedUser({ name: 'Olde' });
    await gw.api('POST', '/api/add-user-college', { token: old.idToken, body: { collegeName: COLLEGE } });
    const endpoint = `${target.url}/stored-before-the-rule`;
    const k = keysOf('olde');
    await gw.db.query(
      'INSERT INTO user_data.push_subscription (endpoint, user_id, p256dh, auth) VALUES ($1, $2, $3, $4)',
      [endpoint, old.uid, k.p256dh, k.auth],
    );
    const deps = replica();
    expect(
      await webPushSender(deps.vapid, deps.pushServices)(
        { endpoint, user_id: old.uid, ...k },
        {
          title: 't',
          body: 'b',
          url: '/',
          tag: 't',
        },
      ),
    ).toBe(REFUSED);
    const r = await sendDueReminders(deps, webPushSender(deps.vapid, deps.pushServices), DAY14);
    expect(r.dropped).toBeGreaterThanOrEqual(1);
    expect(target.hits).toEqual([]);
    expect(await storedEndpoints()).not.toContain(endpoint);
  });

  it('never follows a redirect from a push service', async () => {
    const rex = await createVerifiedUser({ name: 'Rex' });
    await gw.api('POST', '/api/add-user-college', { token: rex.idToken, body: { collegeName: COLLEGE } });
    expect((await subscribe(rex, `${redirect.url}/push/rex`)).status).toBe(200);
    const deps = replica();
    await sendDueReminders(deps, webPushSender(deps.vapid, deps.pushServices), DAY14);
    expect(redirect.hits).toContain('/push/rex');
    expect(target.hits).toEqual([]);
  });
});

describe('a subscription cannot be taken (50.2) and devices are capped (50.6)', () => {
  it('refuses to move a device to an account that does not hold its keys', async () => {
    const [ann, mal] = await Promise.all([
      createVerifiedUser({ name: 'Ann' }),
      createVerifiedUser({ name: 'Mal' }),
    ]);
    const device = push.device('ann-phone');
    expect((await subscribe(ann, device.endpoint, device.keys)).status).toBe(200);
    const taken = await subscribe(mal, device.endpoint, keysOf('mal-guess'));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      success: false,
      code: 'CONFLICT',
      message:
        'This device already sends reminders to another account. Sign in to that account on this device to turn them off there first.',
    });
    expect([await devices(ann), await devices(mal)]).toEqual([1, 0]);
    // The same browser, with its own keys (a shared computer, the next student): the device moves.
    expect((await subscribe(mal, device.endpoint, device.keys)).status).toBe(200);
    expect([await devices(ann), await devices(mal)]).toEqual([0, 1]);
  });

  it(`keeps a student's newest ${MAX_PUSH_DEVICES} devices`, async () => {
    const many = await createVerifiedUser({ name: 'Many' });
    const endpoints = Array.from({ length: MAX_PUSH_DEVICES + 3 }, (_, i) => push.device(`many-${i}`));
    for (const d of endpoints) expect((await subscribe(many, d.endpoint, d.keys)).status).toBe(200);
    expect(await devices(many)).toBe(MAX_PUSH_DEVICES);
    const kept = await storedEndpoints();
    expect(kept).toContain(endpoints.at(-1)!.endpoint);
    expect(kept).not.toContain(endpoints[0]!.endpoint);
  });
});

describe('push services that never answer hold back nobody (50.6)', () => {
  it("sends another student's reminder while ten hanging devices wait out their timeouts", async () => {
    const [slow, quick] = await Promise.all([
      createVerifiedUser({ name: 'Slow' }),
      createVerifiedUser({ name: 'Quick' }),
    ]);
    for (const u of [slow, quick]) {
      await gw.api('POST', '/api/add-user-college', { token: u.idToken, body: { collegeName: COLLEGE } });
    }
    for (let i = 0; i < MAX_PUSH_DEVICES; i++) {
      expect((await subscribe(slow, `${hang.url}/push/slow-${i}`)).status).toBe(200);
    }
    const quickDevice = push.device('quick');
    expect((await subscribe(quick, quickDevice.endpoint, quickDevice.keys)).status).toBe(200);
    const received = push.received.length;
    const deps = replica();
    const sender = webPushSender(deps.vapid, deps.pushServices, 1_500);
    const order: string[] = [];
    const watching = setInterval(() => {
      if (push.received.slice(received).some((p) => p.device === 'quick') && !order.includes('quick'))
        order.push('quick');
      if (hang.events.includes('hung request closed') && !order.includes('hung')) order.push('hung');
    }, 5);
    try {
      await sendDueReminders(deps, sender, DAY14);
    } finally {
      clearInterval(watching);
    }
    // Every hanging device was asked at once (all ten before the first gave up), and the quick student's
    // reminder came before any of them gave up.
    expect(hang.hits.filter((h) => h.startsWith('/push/slow-'))).toHaveLength(MAX_PUSH_DEVICES);
    expect(hang.events.slice(0, MAX_PUSH_DEVICES)).toEqual(Array(MAX_PUSH_DEVICES).fill('hit'));
    expect(order).toEqual(['quick', 'hung']);
  });

  it('never runs two passes at once in one process', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    const pass = nonOverlapping(async () => {
      passes++;
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 50));
      running--;
    });
    await Promise.all([pass(), pass(), pass()]);
    expect([passes, most]).toEqual([1, 1]);
    await pass();
    expect(passes).toBe(2);
  });
});
