import { buildCollege, createVerifiedUser, seedColleges, type TestGateway, type TestUser } from '@ct/testkit';
import type { College } from '@ct/contracts';

/** A college with known deadlines, prompts and requirements, under a name unique to the test. */
export function collegeWith(name: string, over: Partial<College['info']> = {}): College {
  return buildCollege({
    name,
    aliases: [`${name} Alias`],
    info: {
      deadlines: [
        { type: 'Early Action', date: '2026-11-01' },
        { type: 'Regular Decision', date: '2027-01-15' },
      ],
      essayPrompts: ['Why us?', 'Tell us about a challenge.'],
      ...over,
    },
  });
}

/** Calls the API as a user: GET with a query, POST with a body. */
export function as(gw: TestGateway, user: TestUser) {
  return {
    get: <T = Record<string, unknown>>(path: string, query: Record<string, unknown> = {}) =>
      gw.api<T>('GET', `/api${path}`, { token: user.idToken, query }),
    post: <T = Record<string, unknown>>(path: string, body: unknown = {}) =>
      gw.api<T>('POST', `/api${path}`, { token: user.idToken, body }),
  };
}

/** Two fresh verified students. */
export async function twoUsers(): Promise<[TestUser, TestUser]> {
  return Promise.all([createVerifiedUser({ name: 'Alice' }), createVerifiedUser({ name: 'Bob' })]);
}

export { seedColleges };
