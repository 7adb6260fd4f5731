// Issue 20 item 1 on the embedded run (npm start's settings: an AI key, no College Scorecard key); the
// distributed run passes the same cases in tests/distributed-trust.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createVerifiedUser,
  startOpenAiFake,
  type OpenAiFake,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe } from 'vitest';
import { startCollegesGateway } from './colleges-helpers.ts';
import {
  attackAnswer,
  attackCases,
  makeAdmin,
  pathAttackCases,
  rawGetFrom,
  seedAttackColleges,
} from './trust-attacks.ts';

let gw: TestGateway;
let openai: OpenAiFake;
let ana: TestUser;
let ben: TestUser;
let ada: TestUser;

beforeAll(async () => {
  [openai, ana, ben, ada] = await Promise.all([
    startOpenAiFake({ responder: attackAnswer }),
    createVerifiedUser({ name: 'Ana Asker' }),
    createVerifiedUser({ name: 'Ben Bystander' }),
    createVerifiedUser({ name: 'Ada Admin' }),
  ]);
  gw = await startCollegesGateway({
    SCORECARD_API_URL: undefined,
    SCORECARD_API_KEY: undefined,
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: openai.apiKey,
    INGESTION_BACKOFF_MS: '50',
    OUTBOX_RELAY_MS: '200',
  });
  await seedAttackColleges(gw.db);
  await makeAdmin(gw.db, ada);
});
afterAll(async () => {
  await gw?.close();
  await openai?.close();
});

describe('embedded run: no AI answer reaches another student unchecked', () => {
  attackCases(
    () => ({ call: (method, path, opts) => gw.api(method, path, opts), db: gw.db }),
    () => ({ ana, ben, ada }),
  );
});

describe('embedded run: the path the gateway checks is the path reached', () => {
  // Over HTTP: inject would resolve the attack's dot segments and backslashes before the gateway saw them.
  let listener: http.Server;
  let url = '';
  beforeAll(async () => {
    listener = http.createServer((req, res) => gw.app.routing(req, res));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => listener?.close(resolve)));
  pathAttackCases(
    () => rawGetFrom(() => url),
    () => ({ ana }),
  );
});
