// `npm run start:distributed`: every service, the ingestion worker and the gateway as separate
// processes against a real Postgres (DATABASE_URL) and Redis (REDIS_URL), plus the Auth emulator.
import { startAuthEmulator } from './lib/auth-emulator.ts';
import { startDistributed } from './lib/stack.ts';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// An emulator already named by FIREBASE_AUTH_EMULATOR_HOST is used as it is (the services inherit it).
const emulator =
  process.env.FIREBASE_API_KEY || process.env.FIREBASE_AUTH_EMULATOR_HOST
    ? null
    : await startAuthEmulator({ port: Number(process.env.AUTH_EMULATOR_PORT ?? 9099) });
const stack = await startDistributed({
  databaseUrl,
  redisUrl,
  basePort: Number(process.env.PORT ?? 8080),
  env: emulator ? { FIREBASE_AUTH_EMULATOR_HOST: emulator.host } : {},
  // Straight to this terminal: each JSON log line names its service ("service"), and relaying every line
  // through this process would cost the services throughput (see docs/performance.md).
  inheritOutput: true,
});
console.log(`
  Distributed run is up: ${stack.processes.map((p) => `${p.name}:${p.port}`).join(', ')}
  Open   ${stack.gatewayUrl.replace('127.0.0.1', 'localhost')}
  Stop   press Ctrl+C
`);
const stop = async () => {
  await stack.stop();
  await emulator?.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
