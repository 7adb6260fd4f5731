// Issue 43 on the distributed run: every service its own process, the worker asking the local OpenAI and
// College Scorecard stand-ins. The spec's call table, row by row, over HTTP through the gateway.
import { createVerifiedUser, distributedSuite, providerFakes, type TestUser } from '@ct/testkit';
import { openDb, type Db } from '@ct/store';
import { afterAll, beforeAll, describe } from 'vitest';
import { callTableAnswers, callTableCases } from './api/call-table.ts';
import { httpCall, type Call } from './api/trust-attacks.ts';
import { grantRole } from './hardening/lib/users.ts';

const { providerEnv } = providerFakes({ openai: { responder: callTableAnswers } });
const { stack, database } = distributedSuite({
  label: 'dtable',
  basePort: Number(process.env.TEST_DISTRIBUTED_TABLE_PORT ?? 18160),
  env: () => ({
    ...providerEnv(),
    LOAD_SNAPSHOT: 'false',
    OPENAI_REQUESTS_PER_MINUTE: '100000',
    SCORECARD_REQUESTS_PER_MINUTE: '100000',
    INGESTION_BACKOFF_MS: '50',
    OUTBOX_RELAY_MS: '200',
  }),
});
let db: Db;
let student: TestUser;
let admin: TestUser;
beforeAll(async () => {
  db = await openDb({ url: database.url, poolMax: 2 });
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Table Student' }),
    createVerifiedUser({ name: 'Table Admin' }),
  ]);
});
afterAll(() => db?.close());

/** The public API over HTTP, as a browser calls it. */
const call: Call = httpCall(() => stack.gatewayUrl);

describe('distributed run: the spec call table holds for a client that follows it literally', () => {
  callTableCases(() => ({ call, student, admin, grantRole: (uid, role) => grantRole(db, uid, role) }));
});
