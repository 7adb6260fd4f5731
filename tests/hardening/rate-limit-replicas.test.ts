// Issue 45.3: the student rate limit holds across gateway replicas. Two gateways on one Redis (as two
// replicas behind the load balancer): a student's requests count once, whichever replica answers them.
// Without Redis (the embedded run) each counts alone.
import { randomUUID } from 'node:crypto';
import { createVerifiedUser, startTestGateway, type TestGateway } from '@ct/testkit';
import { afterAll, describe, expect, it } from 'vitest';

const LIMIT = 6;
const opened: TestGateway[] = [];
afterAll(() => Promise.all(opened.map((g) => g.close())));

async function replicas(queue: 'bullmq' | 'memory'): Promise<[TestGateway, TestGateway]> {
  const env = {
    RUN_WORKER: 'false',
    RATE_LIMIT_MAX: String(LIMIT),
    QUEUE_PREFIX: `rl-${randomUUID().slice(0, 8)}`,
  };
  const pair = await Promise.all([startTestGateway({ queue, env }), startTestGateway({ queue, env })]);
  opened.push(...pair);
  return pair;
}

describe('the rate limit across replicas', () => {
  it('counts a student once across two gateways on one Redis', async () => {
    const [one, two] = await replicas('bullmq');
    const student = await createVerifiedUser({ name: 'Many Tabs' });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 4; i++) {
      const gw = i % 2 ? two : one;
      statuses.push((await gw.api('GET', '/api/me', { token: student.idToken })).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(4).fill(429)]);
    // Another student has a count of their own.
    const other = await createVerifiedUser({ name: 'Other Student' });
    expect((await two.api('GET', '/api/me', { token: other.idToken })).status).toBe(200);
  });

  it('counts per replica without Redis (the embedded run is one process)', async () => {
    const [one, two] = await replicas('memory');
    const student = await createVerifiedUser({ name: 'Embedded' });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++)
      statuses.push((await (i % 2 ? two : one).api('GET', '/api/me', { token: student.idToken })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});
