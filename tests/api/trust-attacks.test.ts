// Issue 20 item 1 on the embedded run (npm start's settings: an AI key, no College Scorecard key); the
// distributed run passes the same cases in tests/distributed-trust.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe } from 'vitest';
import { aiCollegesSuite } from './colleges-helpers.ts';
import { attackAnswer, attackCases, pathAttackCases, rawGetFrom, stageAttack } from './trust-attacks.ts';

let ana: TestUser;
let ben: TestUser;
let ada: TestUser;

const { gw } = aiCollegesSuite({ OUTBOX_RELAY_MS: '200' }, { responder: attackAnswer });
beforeAll(async () => {
  ({ ana, ben, ada } = await stageAttack(gw.db));
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
