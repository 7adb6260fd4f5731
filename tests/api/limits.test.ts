// Issue 37, item 4: each limit has one source (`LIMITS` in @ct/contracts). Through the API, a value at a
// limit is taken and one past it is refused, with the sentence that names that very limit: so a schema
// bound, a service's check and a message cannot drift apart again.
import { randomUUID } from 'node:crypto';
import { INPUT_MSG, LIMITS, MSG, SCORE_SCALES, SHARE_INPUT_MSG } from '@ct/contracts';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { buildCollege, createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';

const COLLEGE = 'Limits Test College';
const grouped = (n: number) => n.toLocaleString('en-US');

let student: TestUser;
let admin: TestUser;

const { gw } = gatewaySuite({ queue: 'memory', colleges: [buildCollege({ name: COLLEGE })] });
beforeAll(async () => {
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Limits Student' }),
    createVerifiedUser({ name: 'Limits Admin' }),
  ]);
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
  expect((await post('/add-user-college', { collegeName: COLLEGE })).status).toBe(200);
  expect((await post('/add-note', { note: { title: 'Kept', content: 'x' } })).status).toBe(200);
});

type Reply = { status: number; body: { message?: string } };
const post = (path: string, body: unknown, user: TestUser = student): Promise<Reply> =>
  gw.api('POST', `/api${path}`, { token: user.idToken, body });
const get = (path: string, query: Record<string, unknown>): Promise<Reply> =>
  gw.api('GET', `/api${path}`, { token: student.idToken, query });

const offer = (over: Record<string, unknown>) => ({
  collegeName: COLLEGE,
  offer: { costOfAttendance: null, grants: [], workStudy: 0, loans: [], totalAidStated: null, ...over },
});
let labels = 0;
/** The academic profile as saved, with one field changed: the route takes the whole profile. */
async function academic(over: Record<string, unknown>): Promise<Reply> {
  const saved = await gw.api<{ data: Record<string, unknown> }>('GET', '/api/get-academic-profile', {
    token: student.idToken,
  });
  const { updatedAt: _updatedAt, ...profile } = saved.body.data;
  return post('/update-academic-profile', { ...profile, ...over });
}

interface Limit {
  /** The limit, as a student would name it. */
  what: string;
  /** The last value taken. */
  at: number;
  /** The first value refused. */
  past: number;
  /** Calls the route with the value. */
  call: (n: number) => Promise<Reply>;
  /** The refusal: the sentence, and the figure in it. */
  message: string;
  figure: string;
}

/** A most: `max` is taken, `max + step` refused with `message`, which names `max` as `figure` does. */
function most(
  what: string,
  max: number,
  call: (n: number) => Promise<Reply>,
  message: string,
  { step = 1, figure = String(max) }: { step?: number; figure?: string } = {},
): Limit {
  return { what, at: max, past: max + step, call, message, figure };
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `College ${i}`);
const essay = (n: number) => post('/add-example-essay', { prompt: 'Why us?', essay: 'e'.repeat(n) }, admin);
const portal = (n: number) => {
  const base = 'https://portal.example.edu/';
  return post('/update-application', { collegeName: COLLEGE, portalUrl: base + 'p'.repeat(n - base.length) });
};
const { satSection: sat, actComposite: act, unweightedGpa: gpa } = SCORE_SCALES;

const limits: Limit[] = [
  most(
    'characters of a new note',
    LIMITS.noteContentMax,
    (n) => post('/add-note', { note: { title: `Note ${n}`, content: 'a'.repeat(n) } }),
    MSG.noteTooLong,
  ),
  most(
    'characters of an edited note',
    LIMITS.noteContentMax,
    (n) => post('/update-note', { noteTitle: 'Kept', noteContent: 'b'.repeat(n) }),
    MSG.noteTooLong,
  ),
  most(
    'characters of an essay draft',
    LIMITS.draftCharsMax,
    (n) => post('/save-essay-draft', { prompt: 'Why us?', body: 'w'.repeat(n), keepVersion: true }),
    INPUT_MSG.draftTooLong,
    { figure: grouped(LIMITS.draftCharsMax) },
  ),
  most(
    'characters naming a recommender',
    LIMITS.recommenderWhoMax,
    (n) =>
      post('/save-recommender', { collegeName: COLLEGE, recommenderId: randomUUID(), who: 'r'.repeat(n) }),
    INPUT_MSG.recommenderWho,
  ),
  most(
    'sections of a checklist',
    LIMITS.checklistSectionsMax,
    (n) =>
      post('/update-checklist', {
        collegeName: COLLEGE,
        checklist: Object.fromEntries(Array.from({ length: n }, (_, i) => [`section${i}`, []])),
      }),
    INPUT_MSG.checklistSections,
  ),
  most('an SAT section score', sat.max, (n) => academic({ satMath: n }), INPUT_MSG.satSection, {
    step: sat.step,
  }),
  most('an ACT composite', act.max, (n) => academic({ act: n }), INPUT_MSG.actComposite),
  most('an unweighted GPA', gpa.max, (n) => academic({ gpa: n }), INPUT_MSG.gpa, { step: 0.01 }),
  most(
    'dollars of a yearly budget',
    LIMITS.yearlyBudgetMax,
    (n) => academic({ yearlyBudget: n }),
    INPUT_MSG.yearlyBudget,
    {
      figure: grouped(LIMITS.yearlyBudgetMax),
    },
  ),
  most(
    'colleges applied to test-optional',
    LIMITS.testOptionalCollegesMax,
    (n) => academic({ testOptional: names(n) }),
    INPUT_MSG.testOptional,
  ),
  most("characters of an application portal's address", LIMITS.portalUrlMax, portal, INPUT_MSG.portalUrl),
  most(
    'dollars of an aid offer line',
    LIMITS.aidAmountMax,
    (n) => post('/save-aid-offer', offer({ costOfAttendance: n })),
    INPUT_MSG.aidAmount,
    { figure: `$${grouped(LIMITS.aidAmountMax)}` },
  ),
  most(
    'characters naming a grant',
    LIMITS.aidLineNameMax,
    (n) => post('/save-aid-offer', offer({ grants: [{ name: 'g'.repeat(n), amount: 1 }] })),
    INPUT_MSG.aidLineName,
  ),
  most(
    'days before a deadline a reminder may come',
    LIMITS.reminderDaysMax,
    (n) => post('/update-deadline-settings', { reminderDays: [n] }),
    INPUT_MSG.reminderDaysRange,
  ),
  most(
    'reminder days chosen',
    LIMITS.reminderDaysCount,
    (n) => post('/update-deadline-settings', { reminderDays: Array.from({ length: n }, (_, i) => i) }),
    INPUT_MSG.reminderDaysRange,
  ),
  most(
    "characters of a share link's name",
    LIMITS.share.labelMax,
    (n) => post('/create-share-link', { label: `${++labels}`.padEnd(n, 'l') }),
    SHARE_INPUT_MSG.label,
  ),
  most(
    'days a share link lives',
    LIMITS.share.maxDays,
    (n) => post('/create-share-link', { label: `Days ${++labels}`, expiresInDays: n }),
    SHARE_INPUT_MSG.days,
  ),
  most(
    'colleges read at once',
    LIMITS.collegesPerBatchRead,
    (n) => get('/get-colleges', { names: names(n).join('\n') }),
    'Please ask for at most 100 colleges at once.',
  ),
  most('characters of an example essay', LIMITS.exampleEssayMax, essay, INPUT_MSG.exampleEssayLength, {
    figure: grouped(LIMITS.exampleEssayMax),
  }),
  // The least: 50 characters taken, 49 refused.
  most(
    'characters of an example essay, at least',
    LIMITS.exampleEssayMin,
    essay,
    INPUT_MSG.exampleEssayLength,
    {
      step: -1,
    },
  ),
];

describe('each limit is the one the API holds to and the one its message names', () => {
  it.each(limits.map((l) => [l.what, l] as const))('%s', async (_what, l) => {
    const at = await l.call(l.at);
    // Taken: nothing about its size is refused (a prompt no college asks may still be unknown: 404).
    expect(at.status, JSON.stringify(at.body)).not.toBe(400);
    const past = await l.call(l.past);
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(l.message);
    expect(l.message).toContain(l.figure);
  });

  it("states the spec's note limit in the spec's own words", () => {
    expect(MSG.noteTooLong).toBe('Note content cannot exceed 2000 characters');
    expect(LIMITS.noteContentMax).toBe(2000);
    expect(LIMITS.notesPerUser).toBe(30);
  });
});
