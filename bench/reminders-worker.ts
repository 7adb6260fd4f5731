// One reminder worker for `npm run bench -- reminders`: a user-data replica's reminder pass, in a process
// of its own, on the bench's database. Waits for "go" on stdin (so process start-up is not timed), runs
// one pass, prints its result as JSON.
import { openDb } from '../packages/store/src/index.ts';
import { webPushSender } from '../services/user-data/src/reminders/push.ts';
import { sendDueReminders } from '../services/user-data/src/reminders/send-reminders.ts';
import { jobReplica } from '../services/user-data/src/reminders/test-replica.ts';

const db = await openDb({ url: process.env.DATABASE_URL!, poolMax: 8 });
const deps = jobReplica(
  db,
  {
    VAPID_PUBLIC_KEY: process.env.VAPID_PUBLIC_KEY!,
    VAPID_PRIVATE_KEY: process.env.VAPID_PRIVATE_KEY!,
    PUSH_SERVICE_HOSTS: process.env.PUSH_SERVICE_HOSTS!,
  },
  [],
);
const send = webPushSender(deps.vapid, deps.pushServices);
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const started = Date.now();
const r = await sendDueReminders(deps, send, new Date(process.env.PASS_AT!));
process.stdout.write(`${JSON.stringify({ ...r, started, ended: Date.now() })}\n`);
await db.close();
process.exit(0);
