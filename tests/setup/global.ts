import net from 'node:net';
import { ESSAY_PROMPTS_JSON, startAuthEmulator, type EmulatorHandle } from '@ct/testkit';

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.setTimeout(2000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

let emulator: EmulatorHandle | undefined;

/** Runs once per test run: checks Postgres and Redis, starts the Auth emulator (port 9199 unless set). */
export async function setup(): Promise<void> {
  const missing: string[] = [];
  if (!(await reachable('127.0.0.1', 5432))) missing.push('PostgreSQL on 127.0.0.1:5432');
  if (!(await reachable('127.0.0.1', 6379))) missing.push('Redis on 127.0.0.1:6379');
  if (missing.length)
    throw new Error(`The tests need ${missing.join(' and ')} (see README, "Running the tests").`);
  // Test gateways start with an empty college cache (each test seeds what it needs); the tests of the
  // shipped College Scorecard snapshot turn the load on themselves.
  process.env.LOAD_SNAPSHOT ??= 'false';
  // The Common App and UC prompts are not shipped: the tests act as an operator who gives the published file.
  process.env.ESSAY_PROMPTS_FILE ??= ESSAY_PROMPTS_JSON;
  const started = Date.now();
  emulator = await startAuthEmulator({ port: Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  console.log(
    `Auth emulator ${emulator.owned ? 'started' : 'reused'} at ${emulator.host} in ${Date.now() - started} ms`,
  );
}

export async function teardown(): Promise<void> {
  await emulator?.stop();
}
