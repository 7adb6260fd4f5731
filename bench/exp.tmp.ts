// ad-hoc: npm start on an existing seeded data dir; measure bare, /api/healthz, /api/me, get-user-colleges
import path from 'node:path';
import { startAuthEmulator, createVerifiedUser } from '@ct/testkit';
import { load, fmt, ms } from '/work/wt-bench/bench/lib.ts';
import { startBare, startEmbedded } from '/work/wt-bench/bench/servers.ts';
import { api } from '/work/wt-bench/bench/seed.ts';
const dataDir = process.argv[2]!;
const secs = Number(process.env.S ?? 8);
const emulator = await startAuthEmulator({ port: 19163 });
process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
const bare = await startBare({ port: 20120, logFile: '/tmp/exp-bare.log' });
const server = await startEmbedded({ port: 20100, dataDir, logFile: '/tmp/exp-emb.log', env: { FIREBASE_AUTH_EMULATOR_HOST: emulator.host, ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}) } });
try {
  const users = await Promise.all(Array.from({ length: 50 }, (_, i) => createVerifiedUser({ name: `X ${i}` })));
  const names = ['Synthetic Valley College 1','Synthetic Lakeside College 2','Synthetic Summit College 3','Synthetic Harbor College 4','Synthetic Prairie College 5','Synthetic Valley College 6','Synthetic Lakeside College 7','Synthetic Summit College 8','Synthetic Harbor College 9','Synthetic Prairie College 10'];
  for (const u of users) for (const n of names) await api(server.url, u.idToken, 'POST', '/add-user-college', { collegeName: n }).catch(() => {});
  const hdr = (u: (typeof users)[0]) => ({ authorization: `Bearer ${u.idToken}` });
  const row = (label: string, r: Awaited<ReturnType<typeof load>>) => console.log(label.padEnd(30), fmt(r.rps).padStart(8), 'req/s', ms(r.p50), ms(r.p99), r.errors, r.non2xx, 'cpu/req', fmt(r.cpuUsPerRequest ?? -1), 'µs');
  const which = (process.env.ONLY ?? 'bare,healthz,me,uc').split(',');
  for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++) {
    if (which.includes('bare')) row('bare', await load({ cpu: bare.cpuSeconds, url: `${bare.url}/hello`, duration: secs, warmup: 2 }));
    if (which.includes('healthz')) row('healthz', await load({ cpu: server.cpuSeconds, url: `${server.url}/api/healthz`, duration: secs, warmup: 2 }));
    if (which.includes('me')) row('me', await load({ cpu: server.cpuSeconds, url: server.url, duration: secs, warmup: 2, requests: users.map((u) => ({ method: 'GET', path: '/api/me', headers: hdr(u) })) }));
    if (which.includes('uc')) row('get-user-colleges', await load({ cpu: server.cpuSeconds, url: server.url, duration: secs, warmup: 2, requests: users.map((u) => ({ method: 'GET', path: '/api/get-user-colleges', headers: hdr(u) })) }));
  }
} finally {
  await server.stop(); await bare.stop(); await emulator.stop();
}
process.exit(0);
