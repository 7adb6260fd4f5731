// Issue 20 item 1 on the distributed run: every service its own process, the worker asking the local
// OpenAI fake, real Postgres and Redis. The same attack cases as the embedded run (tests/api/trust-attacks.ts).
import { distributedSuite, startOpenAiFake, type OpenAiFake, type TestUser } from '@ct/testkit';
import { openDb, type Db } from '@ct/store';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  attackAnswer,
  attackCases,
  httpCall,
  pathAttackCases,
  rawGetFrom,
  stageAttack,
  type Call,
} from './api/trust-attacks.ts';

let db: Db;
let openai: OpenAiFake;
let ana: TestUser;
let ben: TestUser;
let ada: TestUser;

beforeAll(async () => {
  openai = await startOpenAiFake({ responder: attackAnswer });
  // npm start's settings: no College Scorecard key (the processes inherit this environment).
  delete process.env.SCORECARD_API_KEY;
});
afterAll(() => openai?.close());
const { stack, database } = distributedSuite({
  label: 'dtrust',
  basePort: Number(process.env.TEST_DISTRIBUTED_TRUST_PORT ?? 18120),
  env: () => ({
    LOAD_SNAPSHOT: 'false',
    OPENAI_API_KEY: openai.apiKey,
    OPENAI_BASE_URL: openai.url,
    OPENAI_REQUESTS_PER_MINUTE: '100000',
    INGESTION_BACKOFF_MS: '50',
    OUTBOX_RELAY_MS: '200',
  }),
});
beforeAll(async () => {
  // The services made their schemas at start; the attacked colleges go in as the shipped data would.
  db = await openDb({ url: database.url, poolMax: 2 });
  ({ ana, ben, ada } = await stageAttack(db));
});
afterAll(() => db?.close());

/** The public API over HTTP, as a browser calls it. */
const call: Call = httpCall(() => stack.gatewayUrl);

describe('distributed run: no AI answer reaches another student unchecked', () => {
  attackCases(
    () => ({ call, db }),
    () => ({ ana, ben, ada }),
  );
});

describe('distributed run: the path the gateway checks is the path reached', () => {
  pathAttackCases(
    () => rawGetFrom(() => stack.gatewayUrl),
    () => ({ ana }),
  );
});
