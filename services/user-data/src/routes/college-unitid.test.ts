import { CollegeIngestedEvent, EVENT_SUBSCRIBERS, normaliseCollegeName, type College } from '@ct/contracts';
import { EventBus, openQueue } from '@ct/queue';
import { buildCollege, gatewaySuite, TEST_REDIS_URL, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, twoUsers } from './test-helpers.ts';

// Two institutions of one name, city and state, told apart by their size (as the shipped twins are).
const TWIN_A = 'Western Technical College (El Paso, TX, 1,303 undergraduates)';
const TWIN_B = 'Western Technical College (El Paso, TX, 566 undergraduates)';
const twin = (name: string, scorecardId: number, size: number): College =>
  buildCollege({
    name,
    scorecardId,
    demographics: { schoolCity: 'El Paso', schoolState: 'TX', schoolSize: size },
  });

let alice: TestUser;
let bob: TestUser;

type ListReply = { colleges: Array<{ collegeId: string; collegeName: string; scorecardId?: number }> };
type ResourcesReply = { demographics: { schoolSize: number | null } };

/** Renames a stored college as a data reload would (its row, key and document). */
async function rename(from: string, to: string): Promise<void> {
  await gw.db.query(
    `UPDATE colleges.college SET name = $2, normalized_name = $3,
       document = jsonb_set(document, '{name}', to_jsonb($2::text)) WHERE name = $1`,
    [from, to, normaliseCollegeName(to)],
  );
}

const { gw } = gatewaySuite({ colleges: [twin(TWIN_A, 224679, 1303), twin(TWIN_B, 224660, 566)] });
beforeAll(async () => {
  [alice, bob] = await twoUsers();
});

describe("a list entry points at its institution's UNITID", () => {
  it('keeps the UNITID of the college added, and shows that college', async () => {
    const added = await as(gw, alice).post('/add-user-college', { collegeName: TWIN_A });
    expect(added.status).toBe(200);
    const list = await as(gw, alice).get<ListReply>('/get-user-colleges');
    expect(list.body.colleges).toEqual([
      expect.objectContaining({ collegeName: TWIN_A, scorecardId: 224679 }),
    ]);
    const r = await as(gw, alice).get<ResourcesReply>('/get-college-resources-demographics', {
      collegeName: TWIN_A,
    });
    expect(r.body.demographics.schoolSize).toBe(1303);
  });

  it('still shows the same institution after the twins swap names in a reload', async () => {
    await rename(TWIN_A, 'swap in progress');
    await rename(TWIN_B, TWIN_A);
    await rename('swap in progress', TWIN_B);
    // The entry's name now belongs to the other twin; the UNITID keeps the student's college.
    const r = await as(gw, alice).get<ResourcesReply>('/get-college-resources-demographics', {
      collegeName: TWIN_A,
    });
    expect(r.status).toBe(200);
    expect(r.body.demographics.schoolSize).toBe(1303);
    // The same institution under its new name is on the list already; the other twin can be added.
    const same = await as(gw, alice).post('/add-user-college', { collegeName: TWIN_B });
    expect(same.status).toBe(409);
    const other = await as(gw, bob).post('/add-user-college', { collegeName: TWIN_A });
    expect(other.status).toBe(200);
    const bobs = await as(gw, bob).get<ListReply>('/get-user-colleges');
    expect(bobs.body.colleges.map((c) => c.scorecardId)).toEqual([224660]);
    await rename(TWIN_A, 'swap in progress');
    await rename(TWIN_B, TWIN_A);
    await rename('swap in progress', TWIN_B);
  });

  it('gives an entry made before UNITIDs were kept its UNITID when its college is announced', async () => {
    await gw.db.query(
      `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
       VALUES ($1, $2, $3, '{}'::json)`,
      [bob.uid, normaliseCollegeName(TWIN_B), TWIN_B],
    );
    const before = await as(gw, bob).get<ListReply>('/get-user-colleges');
    expect(before.body.colleges.find((c) => c.collegeName === TWIN_B)?.scorecardId).toBeUndefined();
    const r = await as(gw, bob).get<ResourcesReply>('/get-college-resources-demographics', {
      collegeName: TWIN_B,
    });
    expect(r.body.demographics.schoolSize).toBe(566);
    // A read only reads: the entry learns its UNITID from its college's next `college.ingested` event.
    const read = await as(gw, bob).get<ListReply>('/get-user-colleges');
    expect(read.body.colleges.find((c) => c.collegeName === TWIN_B)?.scorecardId).toBeUndefined();
    const publisher = openQueue({ url: TEST_REDIS_URL, prefix: gw.prefix });
    try {
      await new EventBus(publisher, EVENT_SUBSCRIBERS).publish(
        CollegeIngestedEvent,
        {
          name: TWIN_B,
          scorecardId: 224660,
          aliases: [],
          deadlines: [],
          essayPrompts: [],
          ingestedAt: new Date().toISOString(),
        },
        `twin-b-${Date.now()}`,
      );
    } finally {
      await publisher.close();
    }
    await expect
      .poll(
        async () =>
          (await as(gw, bob).get<ListReply>('/get-user-colleges')).body.colleges.find(
            (c) => c.collegeName === TWIN_B,
          )?.scorecardId,
        { timeout: 15_000 },
      )
      .toBe(224660);
  });

  it('carries the UNITID through remove and Undo', async () => {
    const removed = await as(gw, alice).post('/remove-user-college', { collegeName: TWIN_A });
    expect(removed.status).toBe(200);
    const back = await as(gw, alice).post<{ restored: boolean }>('/add-user-college', {
      collegeName: TWIN_A,
    });
    expect(back.body.restored).toBe(true);
    const list = await as(gw, alice).get<ListReply>('/get-user-colleges');
    expect(list.body.colleges).toEqual([
      expect.objectContaining({ collegeName: TWIN_A, scorecardId: 224679 }),
    ]);
  });
});
