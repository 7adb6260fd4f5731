// Issue 43: the product spec's call table (§7), followed literally by a client that knows only that table:
// each row's method, path and inputs as written, its answer's message and fields as written, and polling
// where the spec's flow waits for gathered data (a college: "search, add if not found, search again"; a
// major's stats and example essays: the same GET again). The embedded run (`call-table.test.ts`) and the
// distributed run (`call-table-distributed.test.ts`) both walk it.
import type { StaffRole } from '@ct/contracts';
import { buildFactsAnswer, buildMajorAnswer, type ResponsesRequest, type TestUser } from '@ct/testkit';
import { expect, it } from 'vitest';
import type { Call } from './trust-attacks.ts';

/** A college of the Scorecard fixture the shipped data is not loaded with in these runs. */
export const TABLE_COLLEGE = 'University of Alabama at Birmingham';
const SITE = 'https://www.uab.edu';

type Body = Record<string, unknown> & { success?: boolean; message?: string; data?: unknown };

/** What the AI provider answers for this walk: the college's facts, a major's stats, example essays. */
export function callTableAnswers(req: ResponsesRequest): { value: unknown } | undefined {
  if (req.schemaName === 'college_facts' && req.input.includes(TABLE_COLLEGE)) {
    return {
      value: buildFactsAnswer({
        officialName: TABLE_COLLEGE,
        city: 'Birmingham',
        state: 'AL',
        website: `${SITE}/`,
        links: { value: [`${SITE}/admissions`], sourceUrl: `${SITE}/admissions` },
        tips: { value: ['Apply by the priority date for scholarships.'], sourceUrl: `${SITE}/admissions` },
      }),
    };
  }
  if (req.schemaName === 'major_profile') {
    const page = `${SITE}/cas/cs`;
    return {
      value: buildMajorAnswer({
        averageWeightedGpa: { value: 3.9, scope: 'college', sourceUrl: `${SITE}/profile` },
        averageSatScore: { value: 1250, scope: 'college', sourceUrl: `${SITE}/profile` },
        extracurriculars: { value: ['Robotics club'], sourceUrl: page },
        essayTopics: { value: ['Why computing'], sourceUrl: page },
        description: { value: 'Computing theory and practice.', sourceUrl: page },
      }),
    };
  }
  if (req.schemaName === 'example_essays') {
    const words = Array.from({ length: 150 }, (_, i) => `word${i}`).join(' ');
    return { value: { essays: [{ title: 'A Shelf', body: `I fixed a shelf. ${words}` }] } };
  }
  return undefined;
}

export interface CallTableTarget {
  call: Call;
  /** A student with nothing yet, and an admin. */
  student: TestUser;
  admin: TestUser;
  grantRole(uid: string, role: StaffRole): Promise<void>;
}

/** Calls a GET until it is no longer 202 ("Taking our time"): the spec's client waits for gathered data. */
async function poll(call: () => Promise<{ status: number; body: Body }>, what: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await call();
    if (r.status !== 202) return r;
    if (Date.now() > end) throw new Error(`${what}: still 202 after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

/** Registers one test per row of the spec's call table (§7), in the order a student meets them. */
export function callTableCases(target: () => CallTableTarget): void {
  const get = (path: string, query: Record<string, string>, token = target().student.idToken) =>
    target().call<Body>('GET', `/api${path}`, { token, query });
  const post = (path: string, body: unknown, token = target().student.idToken) =>
    target().call<Body>('POST', `/api${path}`, { token, body });
  const uid = () => target().student.uid;

  it('GET /search-college and POST /add-college: search, add if not found, search again', async () => {
    const first = await get('/search-college', { name: TABLE_COLLEGE });
    expect(first.status).toBe(404);
    // The add answers 202 ("Taking our time :D") while the college is gathered; asking again joins it.
    const added = await poll(() => post('/add-college', { name: TABLE_COLLEGE }), 'add-college', 90_000);
    expect(added.status, JSON.stringify(added.body).slice(0, 300)).toBe(200);
    const found = await get('/search-college', { name: TABLE_COLLEGE });
    expect(found.status, JSON.stringify(found.body).slice(0, 300)).toBe(200);
    expect(found.body.message).toBe('College found');
    expect(found.body.data).toMatchObject({ name: TABLE_COLLEGE });
  });

  it('GET /get-college-suggestions: "Suggestions found" plus suggestions', async () => {
    const r = await get('/get-college-suggestions', { query: 'University of Alabama at B' });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Suggestions found');
    expect(r.body.suggestions).toContain(TABLE_COLLEGE);
  });

  it('GET /get-major-suggestions: "Suggestions found" plus suggestions', async () => {
    const r = await get('/get-major-suggestions', { query: 'Computer' });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Suggestions found');
    expect(r.body.suggestions).toContain('Computer Science');
  });

  it('GET /get-major-profile alone reaches "Major Stats Found" with the five fields', async () => {
    const r = await poll(
      () => get('/get-major-profile', { collegeName: TABLE_COLLEGE, major: 'Computer Science' }),
      'get-major-profile',
    );
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.message).toBe('Major Stats Found');
    expect(r.body.data).toMatchObject({
      average_weighted_gpa: expect.anything(),
      average_sat_score: expect.anything(),
      extracurriculars: ['Robotics club'],
      essaytopics: ['Why computing'],
      description: 'Computing theory and practice.',
    });
  });

  it('POST /add-user-college and GET /get-user-colleges: "Colleges Found For User"', async () => {
    const added = await post('/add-user-college', { userId: uid(), collegeName: TABLE_COLLEGE });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ success: true, message: expect.any(String) });
    expect(added.body).toHaveProperty('data');
    const list = await get('/get-user-colleges', { userId: uid() });
    expect(list.body.message).toBe('Colleges Found For User');
    expect(list.body.colleges).toEqual([expect.objectContaining({ collegeName: TABLE_COLLEGE })]);
  });

  it('GET /get-college-checklist and POST /update-checklist, whole and single item', async () => {
    const r = await get('/get-college-checklist', { userId: uid(), collegeName: TABLE_COLLEGE });
    expect(r.body.message).toBe('Checklist found');
    const checklist = r.body.checklist as Record<string, Array<Record<string, unknown>>>;
    const [section, items] = Object.entries(checklist).find(([, list]) => list.some((i) => 'text' in i))!;
    const index = items.findIndex((i) => 'text' in i);
    const single = await post('/update-checklist', {
      userId: uid(),
      collegeName: TABLE_COLLEGE,
      section,
      itemIndex: index,
      completed: true,
    });
    expect(single.body.success).toBe(true);
    const ticked = await get('/get-college-checklist', { userId: uid(), collegeName: TABLE_COLLEGE });
    const tickedList = ticked.body.checklist as typeof checklist;
    expect(tickedList[section]![index]).toMatchObject({ completed: true });
    const whole = structuredClone(tickedList);
    whole[section]!.push({ text: 'Ask a counselor to read my essay', completed: false });
    const replaced = await post('/update-checklist', {
      userId: uid(),
      collegeName: TABLE_COLLEGE,
      checklist: whole,
    });
    expect(replaced.body.success).toBe(true);
    const after = await get('/get-college-checklist', { userId: uid(), collegeName: TABLE_COLLEGE });
    expect((after.body.checklist as typeof checklist)[section]).toContainEqual(
      expect.objectContaining({ text: 'Ask a counselor to read my essay', completed: false }),
    );
  });

  it('GET /get-college-resources-demographics: "Resources and Demographics found"', async () => {
    const r = await get('/get-college-resources-demographics', { userId: uid(), collegeName: TABLE_COLLEGE });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Resources and Demographics found');
    expect(r.body).toHaveProperty('resources');
    expect(r.body).toHaveProperty('demographics');
  });

  it('GET /get-colleges-essays, /get-prompts and /get-essays: success plus their lists', async () => {
    const colleges = await get('/get-colleges-essays', {});
    expect(colleges.body.success).toBe(true);
    expect(colleges.body.colleges).toContain('Common App');
    const prompts = await get('/get-prompts', { collegeName: 'Common App' });
    expect(prompts.body.success).toBe(true);
    const list = prompts.body.prompts as string[];
    expect(list.length).toBeGreaterThan(0);
    const essays = await poll(
      () => get('/get-essays', { collegeName: 'Common App', prompt: list[0]! }),
      'essays',
    );
    expect(essays.status, JSON.stringify(essays.body).slice(0, 300)).toBe(200);
    expect(essays.body.success).toBe(true);
    expect((essays.body.essays as string[])[0]).toMatch(/^I fixed a shelf\./);
  });

  it('notes: POST /add-note, /update-note, /remove-note and GET /get-notes', async () => {
    const now = new Date().toISOString();
    const note = {
      title: 'Visit day',
      content: 'Bring questions',
      createdAt: now,
      updatedAt: now,
      deadline: null,
    };
    const added = await post('/add-note', { userId: uid(), note });
    expect(added.body).toMatchObject({ success: true, message: 'Note successfully added to your profile!' });
    const updated = await post('/update-note', {
      userId: uid(),
      noteTitle: 'Visit day',
      noteContent: 'Bring two',
    });
    expect(updated.body).toMatchObject({ success: true, message: expect.any(String) });
    const notes = await get('/get-notes', { userId: uid() });
    expect(notes.body.message).toBe('Notes Found For User');
    expect(notes.body.notes).toEqual([expect.objectContaining({ title: 'Visit day', content: 'Bring two' })]);
    const removed = await post('/remove-note', { userId: uid(), noteTitle: 'Visit day' });
    expect(removed.body.success).toBe(true);
    expect((await get('/get-notes', { userId: uid() })).body.notes).toEqual([]);
  });

  it('GET /get-deadlines: "Deadlines found" plus deadlines[]', async () => {
    const r = await get('/get-deadlines', { userId: uid() });
    expect(r.body.message).toBe('Deadlines found');
    expect(Array.isArray(r.body.deadlines)).toBe(true);
  });

  it('GET /get-staff-roles and the six admin calls: the role, then each listing', async () => {
    const { admin } = target();
    await target().grantRole(admin.uid, 'admin');
    const role = await get('/get-staff-roles', { userId: admin.uid }, admin.idToken);
    expect(role.body).toMatchObject({ success: true, message: 'Staff Role Found for User', data: 'admin' });
    const listings = {
      metrics: 'metrics',
      colleges: 'colleges',
      staff: 'staff',
      'major-colleges': 'majorColleges',
      'user-colleges': 'userColleges',
      'profile-notes': 'profileNotes',
    };
    for (const [path, field] of Object.entries(listings)) {
      const r = await get(`/admin/${path}`, { userId: admin.uid }, admin.idToken);
      expect(r.status, path).toBe(200);
      expect(r.body.success, path).toBe(true);
      expect(r.body, path).toHaveProperty(field);
    }
  });

  it('POST /remove-user-college: success, message, data', async () => {
    const r = await post('/remove-user-college', { userId: uid(), collegeName: TABLE_COLLEGE });
    expect(r.body).toMatchObject({ success: true, message: 'College removed from your profile' });
    expect(r.body).toHaveProperty('data');
    expect((await get('/get-user-colleges', { userId: uid() })).body.colleges).toEqual([]);
  });
}
