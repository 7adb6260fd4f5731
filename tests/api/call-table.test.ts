// Issue 43 on the embedded run (`npm start`'s shape with an AI and a College Scorecard key): the spec's
// call table, row by row.
import { createVerifiedUser, providerFakes, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe } from 'vitest';
import { grantRole } from '../hardening/lib/users.ts';
import { callTableAnswers, callTableCases } from './call-table.ts';
import { collegesSuite } from './colleges-helpers.ts';
import type { Call } from './trust-attacks.ts';

// The college the walk adds is gathered on demand, as on a first start before the shipped data is in.
process.env.LOAD_SNAPSHOT = 'false';
afterAll(() => {
  delete process.env.LOAD_SNAPSHOT;
});
const { providerEnv } = providerFakes({ openai: { responder: callTableAnswers } });
const gw = collegesSuite(() => ({ ...providerEnv(), INGESTION_BACKOFF_MS: '50' }), { queue: 'bullmq' });
let student: TestUser;
let admin: TestUser;
beforeAll(async () => {
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Table Student' }),
    createVerifiedUser({ name: 'Table Admin' }),
  ]);
});

const call: Call = async (method, path, opts) => {
  const r = await gw.api(method, path, opts);
  return { status: r.status, body: r.body as never };
};

describe('embedded run: the spec call table holds for a client that follows it literally', () => {
  callTableCases(() => ({ call, student, admin, grantRole: (uid, role) => grantRole(gw.db, uid, role) }));
});
