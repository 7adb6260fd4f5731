// `npm run role -- grant admin someone@example.com`: the operator command for staff roles.
import fs from 'node:fs';
import net from 'node:net';
import { runRoleCommand } from '../services/auth/src/cli/role-command.ts';
import { startAuthEmulator, type EmulatorHandle } from '../packages/testkit/src/emulator.ts';
import { AUTH_EMULATOR_DATA } from './lib/stack.ts';

const env = { ...process.env };

function listening(host: string): Promise<boolean> {
  const [h, p] = host.split(':');
  return new Promise((resolve) => {
    const socket = net.connect({ host: h, port: Number(p) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

// The embedded run keeps its emulator accounts in .data/auth-emulator. While the app is stopped (the only time
// the embedded store can be written), start that emulator for the lookup so the accounts can be found.
let emulator: EmulatorHandle | null = null;
const embedded =
  !env.FIREBASE_AUTH_EMULATOR_HOST && !env.GOOGLE_APPLICATION_CREDENTIALS && !env.FIREBASE_API_KEY;
const port = Number(env.AUTH_EMULATOR_PORT ?? 9099);
const changes = process.argv[2] === 'grant' || process.argv[2] === 'revoke';
if (embedded && changes && fs.existsSync(AUTH_EMULATOR_DATA) && !(await listening(`127.0.0.1:${port}`))) {
  process.stdout.write('Starting the Auth emulator with the accounts of the last `npm start`...\n');
  emulator = await startAuthEmulator({
    port,
    dataDir: AUTH_EMULATOR_DATA,
    ...(env.FIREBASE_PROJECT_ID ? { projectId: env.FIREBASE_PROJECT_ID } : {}),
  });
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
