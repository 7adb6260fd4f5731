// One weekly e-mail worker for `npm run bench -- digests`: a user-data replica's weekly e-mail pass, in a
// process of its own, on the bench's database, through the bench's SMTP stand-in. Waits for "go" on stdin
// (so process start-up is not timed), runs one pass, prints its result as JSON.
import type { College } from '../packages/contracts/src/index.ts';
import { openDb } from '../packages/store/src/index.ts';
import { sendDueDigests, smtpSender } from '../services/user-data/src/reminders/send-digests.ts';
import { jobReplica } from '../services/user-data/src/reminders/test-replica.ts';

// The service's own pool size (DB_POOL_MAX's default).
const db = await openDb({ url: process.env.DATABASE_URL!, poolMax: 10 });
const colleges = JSON.parse(process.env.BENCH_COLLEGES!) as College[];
const deps = jobReplica(db, { SMTP_URL: process.env.SMTP_URL!, APP_URL: 'https://app.bench.test' }, colleges);
const mail = smtpSender(process.env.SMTP_URL!, 'deadlines@bench.test');
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const started = Date.now();
const r = await sendDueDigests(deps, mail.send, new Date(process.env.PASS_AT!), { budgetMs: 30 * 60_000 });
process.stdout.write(`${JSON.stringify({ ...r, started, ended: Date.now() })}\n`);
mail.close();
await db.close();
process.exit(0);
