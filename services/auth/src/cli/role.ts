// `npm run role -- grant admin someone@example.com`: the operator command for staff roles.
import { runRoleCommand } from './role-command.ts';

process.exitCode = await runRoleCommand(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
