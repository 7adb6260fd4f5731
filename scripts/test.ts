// The README's test command: builds the web app (browser tests load it through the gateway), then runs
// every test once with Vitest. Extra arguments go to Vitest, e.g. `npm test -- services/colleges`.
import { spawnSync } from 'node:child_process';

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
// flock: several checkouts' test runs on one machine must not build web/dist at the same moment.
if (process.env.SKIP_WEB_BUILD !== '1')
  run('flock', ['/tmp/ct-web-build.lock', 'npm', 'run', 'build', '-w', 'web', '--silent']);
run('npx', ['vitest', 'run', ...process.argv.slice(2)]);
