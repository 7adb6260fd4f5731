// `npm run role -- grant admin someone@example.com`: the operator command for staff roles.
import fs from 'node:fs';
import { runRoleCommand } from '../services/auth/src/cli/role-command.ts';
import { roleSocketAnswers, roleSocketPath } from '../services/auth/src/cli/role-socket.ts';
import { startAuthEmulator, type EmulatorHandle } from './lib/auth-emulator.ts';
import { AUTH_EMULATOR_DATA } from './lib/stack.ts';

const env = { ...process.env };

// The embedded run keeps its emulator accounts in .data/auth-emulator. While the app is stopped, start that
// emulator for the lookup so the accounts can be found. While it runs, the app runs the command itself, with
// its own store and emulator (on the socket in its data folder): nothing to start here.
let emulator: EmulatorHandle | null = null;
const embedded =
  env.NODE_ENV !== 'production' &&
  !env.FIREBASE_AUTH_EMULATOR_HOST &&
  !env.GOOGLE_APPLICATION_CREDENTIALS &&
  !env.FIREBASE_API_KEY;
const changes = process.argv[2] === 'grant' || process.argv[2] === 'revoke';
const appRuns =
  !env.DATABASE_URL && (await roleSocketAnswers(roleSocketPath(env.DATA_DIR || '.data/pglite')));
// A running emulator (the app's) is used as it is: startAuthEmulator then owns nothing and stops nothing.
if (embedded && changes && !appRuns && fs.existsSync(AUTH_EMULATOR_DATA)) {
  emulator = await startAuthEmulator({
    port: Number(env.AUTH_EMULATOR_PORT ?? 9099),
    dataDir: AUTH_EMULATOR_DATA,
    ...(env.FIREBASE_PROJECT_ID ? { projectId: env.FIREBASE_PROJECT_ID } : {}),
  });
  if (emulator.owned)
    process.stdout.write('Started the Auth emulator with the accounts of the last `npm start`.\n');
  env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
}

try {
  process.exitCode = await runRoleCommand(process.argv.slice(2), {
    env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
} finally {
  await emulator?.stop();
}
