// A service URL variable listing several replicas: calls are spread over them, and one replica going away
// costs no failed call that never reached it (the peak run of issue 45 kills a user-data replica).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpTransport, ReplicaSet, ServicePools } from './clients.ts';
import { BaseConfig, parseConfig } from './config.ts';

interface Replica {
  name: string;
  url: string;
  hits: number;
  server: http.Server;
  stop(): Promise<void>;
}

const running: Replica[] = [];

/** A small service replica answering every request with its name; `cut` drops requests unanswered. */
async function replica(name: string, port = 0, cut = false): Promise<Replica> {
  const r = { name, hits: 0 } as Replica;
  r.server = http.createServer((req, res) => {
    r.hits++;
    req.resume();
    if (cut) return void req.socket.destroy();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name })),
    );
  });
  await new Promise<void>((ok) => r.server.listen(port, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`;
  r.stop = () =>
    new Promise<void>((ok) => {
      r.server.close(() => ok());
      r.server.closeAllConnections();
    });
  running.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => (r.server.listening ? r.stop() : undefined)));
});

const get = { method: 'GET', url: '/api/thing', headers: {} };

describe('a service with several replicas', () => {
  it('spreads calls round robin, and keeps answering every call when one replica stops', async () => {
    const a = await replica('a');
    const b = await replica('b');
    const pools = new ServicePools({ 'user-data': `${a.url}, ${b.url}` });
    const send = httpTransport(pools, 2_000);
    try {
      const names = [];
      for (let i = 0; i < 10; i++) names.push(JSON.parse((await send('user-data', get)).body).name);
      expect(names.filter((n) => n === 'a')).toHaveLength(5);
      expect(names.filter((n) => n === 'b')).toHaveLength(5);

      await b.stop();
      // Calls side by side too: the ones bound for b are refused, passed to a, and none fails.
      const after = await Promise.all(Array.from({ length: 40 }, () => send('user-data', get)));
      expect(after.map((r) => r.statusCode)).toEqual(after.map(() => 200));
      expect(new Set(after.map((r) => JSON.parse(r.body).name))).toEqual(new Set(['a']));
    } finally {
      await pools.close();
    }
  });

  it('passes over a replica that refused for a while, then tries it again', async () => {
    const a = await replica('a');
    const b = await replica('b');
    const port = Number(new URL(b.url).port);
    const set = new ReplicaSet([new URL(a.url), new URL(b.url)], 300);
    try {
      await b.stop();
      for (let i = 0; i < 4; i++) await (await set.request({ path: '/', method: 'GET' })).body.text();
      const refusedOnce = a.hits;
      expect(refusedOnce).toBe(4);
      const back = await replica('b again', port);
      await new Promise((r) => setTimeout(r, 350));
      const names = [];
      for (let i = 0; i < 4; i++)
        names.push(JSON.parse(await (await set.request({ path: '/', method: 'GET' })).body.text()).name);
      expect(names).toContain('b again');
      expect(back.hits).toBeGreaterThan(0);
    } finally {
      await set.close();
    }
  });

  it('does not send again a call that was cut off after it reached a replica', async () => {
    const a = await replica('a');
    const cut = await replica('cut', 0, true);
    const set = new ReplicaSet([new URL(cut.url), new URL(a.url)]);
    try {
      await expect(set.request({ path: '/', method: 'POST', body: '{}' })).rejects.toThrow();
      // It may have been applied: only the caller knows whether it may be repeated.
      expect(cut.hits).toBe(1);
      expect(a.hits).toBe(0);
      // The replica that dropped it is passed over for a while.
      const res = await set.request({ path: '/', method: 'GET' });
      expect(JSON.parse(await res.body.text()).name).toBe('a');
    } finally {
      await set.close();
    }
  });

  it('configuration accepts one URL or a comma-separated list of them, nothing else', () => {
    const parse = (v: string) => () => parseConfig(BaseConfig, { USER_DATA_SERVICE_URL: v });
    expect(parse('http://user-data:8083')).not.toThrow();
    expect(parse('http://ud-1:8083,http://ud-2:8083')).not.toThrow();
    expect(parse('http://ud-1:8083, https://ud-2:8083/base')).not.toThrow();
    expect(parse('http://ud-1:8083,')).toThrow(/USER_DATA_SERVICE_URL/);
    expect(parse('http://ud-1:8083,redis://x:6379')).toThrow(/USER_DATA_SERVICE_URL/);
  });
});
