// Bare Fastify hello vs an authenticated route through the full gateway (token verification, security
// headers, rate limit, metrics, routing, access check), same machine, same run. `/api/me` does no I/O, so
// the ratio is what the gateway adds; the role lookup (one Postgres query) is printed for context.
import Fastify from 'fastify';
import { RoleRepository } from '../services/auth/src/repository.ts';
import { createVerifiedUser, startAuthEmulator, startTestGateway } from '../packages/testkit/src/index.ts';
import { fmt, load, report } from './lib.ts';

export async function run(): Promise<void> {
  const duration = Number(process.env.BENCH_SECONDS ?? 10);
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  await load({ url: `${bareUrl}/hello`, duration: 2 }); // warm-up
  const b = await load({ url: `${bareUrl}/hello`, duration });
  await bare.close();

  const emulator = await startAuthEmulator({ port: Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9290) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  const gw = await startTestGateway({
    listen: true,
    queue: 'memory',
    env: { RUN_WORKER: 'false', AUTH_USER_CACHE_MS: '30000' },
  });
  try {
    const user = await createVerifiedUser({ name: 'Bench' });
    await new RoleRepository(gw.db).grantRole(user.uid, 'staff', user.email, 'bench');
    const headers = { authorization: `Bearer ${user.idToken}` };
    const url = `${gw.url}/api/me`;
    await load({ url, headers, duration: 2 });
    const g = await load({ url, headers, duration });
    const dbUrl = `${gw.url}/api/get-staff-roles?userId=${user.uid}`;
    const d = await load({ url: dbUrl, headers, duration });
    const ratio = g.rps / b.rps;
    report('bare Fastify hello (50 connections)', `${fmt(b.rps)} req/s`);
    report('  latency p50 / p99', `${b.p50} / ${b.p99} ms`);
    report('gateway GET /api/me, authenticated (50 conn.)', `${fmt(g.rps)} req/s`);
    report('  latency p50 / p99', `${g.p50} / ${g.p99} ms`);
    report('  errors / non-2xx', `${g.errors} / ${g.non2xx}`);
    report('gateway GET /api/get-staff-roles (+1 SQL query)', `${fmt(d.rps)} req/s`);
    report('  latency p50 / p99', `${d.p50} / ${d.p99} ms`);
    report('  errors / non-2xx', `${d.errors} / ${d.non2xx}`);
    report('ratio gateway / bare', `${fmt(ratio * 100, 1)} %`, '>= 40 %', ratio >= 0.4);
  } finally {
    await gw.close();
    await emulator.stop();
  }
}
