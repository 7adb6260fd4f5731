// `npm run dev`: the web app with hot reload in front of the services, one command. It runs `npm start`
// (the embedded run: every service, the Auth emulator, PGlite) on PORT (8080) and Vite's dev server on
// WEB_PORT (5173), which serves the app's sources with hot reload and passes /api to the gateway. Ctrl+C
// stops both.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/stack.ts';

const port = process.env.PORT ?? '8080';
const webPort = process.env.WEB_PORT ?? '5173';

const run = (args: string[], cwd: string, env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });

const services = run(['--import', 'tsx', path.join(ROOT, 'scripts/start.ts')], ROOT, { PORT: port });
const vite = run(
  [path.join(ROOT, 'node_modules/vite/bin/vite.js'), '--port', webPort, '--strictPort'],
  path.join(ROOT, 'web'),
  { GATEWAY_PORT: port },
);
console.log(
  `\n  Dev server: http://localhost:${webPort} (hot reload; /api goes to the services on :${port})\n`,
);

let stopping = false;
const stop = (code: number) => {
  if (stopping) return;
  stopping = true;
  for (const child of [vite, services]) if (child.exitCode === null) child.kill('SIGINT');
  const left = () => [vite, services].filter((c) => c.exitCode === null && c.signalCode === null).length;
  const wait = setInterval(() => {
    if (!left()) {
      clearInterval(wait);
      process.exit(code);
    }
  }, 100);
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const [name, child] of [
  ['The services', services],
  ['Vite', vite],
] as const) {
  child.once('exit', (code) => {
    if (stopping) return;
    console.error(`${name} exited (${code}).`);
    stop(code ?? 1);
  });
}
