// `npm start`: the embedded run. One process serves the web app and every service on
// http://localhost:8080 (PORT overrides), with PGlite in .data/ and the in-process queue,
// plus the Firebase Auth emulator on 127.0.0.1:9099 unless real Firebase is configured.
import path from 'node:path';
import { signInWorks, startAuthEmulator, type EmulatorHandle } from './lib/auth-emulator.ts';
import {
  AUTH_EMULATOR_DATA,
  buildWeb,
  ROOT,
  spawnTs,
  stopProcess,
  waitForHttp,
  webBuildStale,
} from './lib/stack.ts';

const port = Number(process.env.PORT ?? 8080);
const realFirebase = Boolean(process.env.FIREBASE_API_KEY && !process.env.FIREBASE_AUTH_EMULATOR_HOST);
const authLabel = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? null;

if (webBuildStale()) {
  console.log('Building the web app...');
  const code = buildWeb();
  if (code !== 0) process.exit(code);
}

interface OobCode {
  email: string;
  requestType: string;
  oobLink: string;
  oobCode: string;
}

/**
 * The emulator sends no e-mail: print each verification and password-reset link it would have sent.
 * Links kept from an earlier run (the saved accounts come with them) are not printed again.
 */
async function printEmulatorLinks(e: EmulatorHandle) {
  const url = `http://${e.host}/emulator/v1/projects/${e.projectId}/oobCodes`;
  const codes = async () => ((await (await fetch(url)).json()) as { oobCodes?: OobCode[] }).oobCodes ?? [];
  const seen = new Set((await codes().catch(() => [])).map((c) => c.oobCode));
  const what: Record<string, string> = { VERIFY_EMAIL: 'verify', PASSWORD_RESET: 'reset the password of' };
  const timer = setInterval(() => {
    codes()
      .then((list) => {
        for (const c of list) {
          if (seen.has(c.oobCode)) continue;
          seen.add(c.oobCode);
          console.log(
            `Auth emulator: to ${what[c.requestType] ?? c.requestType} ${c.email}, open ${c.oobLink}`,
          );
        }
      })
      .catch(() => {});
  }, 1000);
  timer.unref();
}

let emulator: EmulatorHandle | null = null;
let emulatorStarting: Promise<EmulatorHandle> | null = null;
const env: Record<string, string> = { PORT: String(port) };
if (!realFirebase && !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
  console.log('Starting the Firebase Auth emulator...');
  const emulatorPort = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
  // The gateway starts meanwhile: each takes seconds, and the gateway needs the emulator only to verify a
  // token. Accounts survive a restart (exported on Ctrl+C), so `npm run role` can find them while the app
  // is stopped (while it runs, the app looks them up itself).
  env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${emulatorPort}`;
  emulatorStarting = startAuthEmulator({
    port: emulatorPort,
    ...(process.env.FIREBASE_PROJECT_ID ? { projectId: process.env.FIREBASE_PROJECT_ID } : {}),
    dataDir: AUTH_EMULATOR_DATA,
  });
}

// The gateway writes its log lines straight to this terminal (relaying them through this process costs
// the gateway throughput: see docs/performance.md).
const gateway = spawnTs('gateway/src/server.ts', env, 'inherit');
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping...');
  await stopProcess(gateway);
  await (emulator ?? (await emulatorStarting?.catch(() => null)))?.stop();
  process.exit(code);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
process.on('SIGHUP', () => void stop()); // the terminal closed: still save the emulator's accounts
gateway.child.once('exit', (code) => {
  if (!stopping) {
    console.error(`The server exited (${code}).`);
    void stop(code ?? 1);
  }
});

if (emulatorStarting) {
  try {
    emulator = await emulatorStarting;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    await stop(1);
  }
  await printEmulatorLinks(emulator!);
}
// "Running" means a student can use it: the gateway is ready (store, queue and the identity provider
// answer, the college data is loaded and its suggestion index built, so the "College data loaded" line of a
// first start comes before this one) and a sign-in through the emulator goes through. Health alone
// answers before the emulator is up and while the college data loads.
await waitForHttp(`http://127.0.0.1:${port}/api/healthz`, 120_000, gateway);
await waitForHttp(`http://127.0.0.1:${port}/api/readyz`, 180_000, gateway);
const emulatorHost = emulator?.host ?? authLabel;
if (emulatorHost) {
  const deadline = Date.now() + 120_000;
  while (!(await signInWorks(emulatorHost))) {
    if (Date.now() > deadline) {
      console.error(`Sign-in through the Auth emulator at ${emulatorHost} did not work within 120 s.`);
      await stop(1);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
console.log(`
  College Ready is running.
  Open   http://localhost:${port}
  API    http://localhost:${port}/api   (docs at /api/docs)
  Auth   ${realFirebase ? 'Firebase project from FIREBASE_* variables' : `Firebase Auth emulator at ${env.FIREBASE_AUTH_EMULATOR_HOST ?? authLabel}`}
  Admin  sign up, then: npm run role -- grant admin <your e-mail>
  Data   ${process.env.DATABASE_URL ? 'Postgres at DATABASE_URL' : path.resolve(ROOT, process.env.DATA_DIR ?? '.data/pglite')}
  Stop   press Ctrl+C
`);
