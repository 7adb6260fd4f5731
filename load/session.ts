// A simulated student's session, shared by every run of `npm run load`: what each student has, how they
// are set up, and the steps they go round. It keeps what the service acknowledged (ticks, notes and their
// text), so the peak run can read every acknowledged write back afterwards.
import { randomBytes } from 'node:crypto';
import { signIn, type TestUser } from '@ct/testkit';
import { LoadClient, pool, type CallResult } from './driver.ts';

export const CHECKLIST = {
  application: [
    { text: 'Create a Common App account', completed: false },
    { text: 'Ask two teachers for recommendations', completed: false },
    { text: 'Send official transcripts', completed: false },
    { text: 'Write the personal essay', completed: false },
    { text: 'Pay the application fee', completed: false },
  ],
  testing: [
    { text: 'Register for the SAT', completed: false },
    { text: 'Send scores', completed: false },
  ],
};

export interface Student {
  user: TestUser;
  token: string;
  colleges: string[];
  /** Each application item's tick as last acknowledged. */
  ticks: boolean[];
  /** False once a tick of the item went unanswered: the service may or may not have applied it. */
  tickKnown: boolean[];
  /** Ids of the notes the service acknowledged. */
  notes: string[];
  /** Each acknowledged note's content as last acknowledged; null once an update of it went unanswered. */
  noteText: Map<string, string | null>;
  /** Acknowledged writes: notes added, notes updated, ticks. */
  acked: { added: number; updated: number; ticks: number };
}

/** What a session sends its calls through: a LoadClient, or one that sends a failed call again. */
export type Caller = Pick<LoadClient, 'call'>;

/**
 * Signs every student in (at the identity provider) and gives each three colleges of `names` and a
 * checklist on the first, through `clientOf(i)`. Returns the students and the sign-in times.
 */
export async function setUpStudents(
  users: TestUser[],
  names: string[],
  clientOf: (i: number) => Caller,
): Promise<{ students: Student[]; signInMs: number[] }> {
  const signInMs: number[] = [];
  const students = await pool(users, 16, async (user, i): Promise<Student> => {
    const setup = clientOf(i);
    const t = performance.now();
    const token = await signIn(user.email, user.password);
    signInMs.push(performance.now() - t);
    const colleges = [0, 1, 2].map((k) => names[(i * 31 + k * 997) % names.length]!);
    for (const collegeName of colleges) {
      const r = await setup.call('setup', 'POST', '/add-user-college', { token, body: { collegeName } });
      if (r.status !== 200) throw new Error(`setup: add-user-college ${r.status} ${JSON.stringify(r.body)}`);
    }
    const r = await setup.call('setup', 'POST', '/update-checklist', {
      token,
      body: { collegeName: colleges[0], checklist: CHECKLIST },
    });
    if (r.status !== 200) throw new Error(`setup: update-checklist ${r.status} ${JSON.stringify(r.body)}`);
    return {
      user,
      token,
      colleges,
      ticks: CHECKLIST.application.map(() => false),
      tickKnown: CHECKLIST.application.map(() => true),
      notes: [],
      noteText: new Map(),
      acked: { added: 0, updated: 0, ticks: 0 },
    };
  });
  signInMs.sort((a, b) => a - b);
  return { students, signInMs };
}

/**
 * One student's session, step by step; returns the steps in the order a student goes through them.
 * `writeIds`: a new note carries an Idempotency-Key (as the phone's outbox sends it), so sending it
 * again after a lost answer adds it once.
 */
export function session(
  client: Caller,
  s: Student,
  names: string[],
  rand: () => number,
  opts: { writeIds?: boolean } = {},
): Array<() => Promise<CallResult>> {
  const pickName = () => names[Math.floor(rand() * names.length)]!;
  let round = 0;
  return [
    () => client.call('list colleges', 'GET', '/get-user-colleges', { token: s.token }),
    () =>
      client.call('open checklist', 'GET', '/get-college-checklist', {
        token: s.token,
        query: { collegeName: s.colleges[0]! },
      }),
    async () => {
      const i = round++ % s.ticks.length;
      const completed = !s.ticks[i];
      const r = await client.call('tick item', 'POST', '/update-checklist', {
        token: s.token,
        body: { collegeName: s.colleges[0]!, section: 'application', itemIndex: i, completed },
      });
      if (r.status === 200) {
        s.ticks[i] = completed;
        s.tickKnown[i] = true;
        s.acked.ticks++;
      } else if (r.status === 0 || r.status >= 500) s.tickKnown[i] = false;
      return r;
    },
    () => {
      const name = pickName();
      const query = name.slice(0, 3 + Math.floor(rand() * 4)).toLowerCase();
      return client.call('suggestions', 'GET', '/get-college-suggestions', {
        token: s.token,
        query: { query },
      });
    },
    () =>
      client.call('search college', 'GET', '/search-college', {
        token: s.token,
        query: { name: pickName() },
      }),
    async () => {
      if (s.notes.length < 12) {
        const content = 'Ask the counselor about the fee waiver.';
        const r = await client.call('add note', 'POST', '/add-note', {
          token: s.token,
          body: {
            note: {
              title: `Note ${s.notes.length + 1} ${Math.floor(rand() * 1e9)}`,
              content,
              deadline: rand() < 0.5 ? '2027-01-15' : null,
            },
          },
          ...(opts.writeIds ? { headers: { 'idempotency-key': randomBytes(12).toString('base64url') } } : {}),
        });
        const id = (r.body as { data?: { id?: string } }).data?.id;
        if (r.status === 200 && id) {
          s.notes.push(id);
          s.noteText.set(id, content);
          s.acked.added++;
        }
        return r;
      }
      const noteId = s.notes[Math.floor(rand() * s.notes.length)]!;
      const noteContent = `Updated ${Date.now()}`;
      const r = await client.call('update note', 'POST', '/update-note', {
        token: s.token,
        body: { noteId, noteContent },
      });
      if (r.status === 200) {
        s.noteText.set(noteId, noteContent);
        s.acked.updated++;
      } else if (r.status === 0 || r.status >= 500) s.noteText.set(noteId, null);
      return r;
    },
    () => client.call('read notes', 'GET', '/get-notes', { token: s.token }),
    () => client.call('read deadlines', 'GET', '/get-deadlines', { token: s.token }),
  ];
}
