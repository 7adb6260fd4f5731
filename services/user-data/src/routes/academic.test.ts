// The academic profile (issue 22): private to the student, validated, in the export, gone with the account's data.
import type { AcademicProfile } from '@ct/contracts';
import { gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, collegeWith, twoUsers } from './test-helpers.ts';

let alice: TestUser;
let bob: TestUser;
type Reply<T> = { success: boolean; message: string; data: T };

const COLBY = 'Colby College';
const full = {
  satReadingWriting: 680,
  satMath: 710,
  act: 31,
  gpa: 3.85,
  yearlyBudget: 22000,
  testOptional: [COLBY],
};

const { gw } = gatewaySuite({ queue: 'memory', colleges: [collegeWith(COLBY)] });
beforeAll(async () => {
  [alice, bob] = await twoUsers();
  await as(gw, alice).post('/add-user-college', { collegeName: COLBY });
});

describe('academic profile', () => {
  it('starts unset, saves scores, GPA, budget and test-optional choices, and clears them', async () => {
    const empty = await as(gw, alice).get<Reply<AcademicProfile>>('/get-academic-profile');
    expect(empty.body).toEqual({
      success: true,
      message: 'Your academic profile',
      data: {
        satReadingWriting: null,
        satMath: null,
        act: null,
        gpa: null,
        yearlyBudget: null,
        testOptional: [],
        updatedAt: null,
      },
    });
    const saved = await as(gw, alice).post<Reply<AcademicProfile>>('/update-academic-profile', {
      userId: alice.uid,
      ...full,
      // Typed as the student likes: the list's own name comes back.
      testOptional: ['colby college', COLBY],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ message: 'Academic profile saved', data: full });
    const read = await as(gw, alice).get<Reply<AcademicProfile>>('/get-academic-profile');
    expect(read.body.data).toEqual(saved.body.data);
    // Private: another student reads only their own, unset profile.
    expect((await as(gw, bob).get<Reply<AcademicProfile>>('/get-academic-profile')).body.data.satMath).toBe(
      null,
    );
  });

  it.each([
    [{ ...full, satMath: 805 }, 'An SAT section score is a multiple of 10 from 200 to 800'],
    [{ ...full, satMath: 705 }, 'An SAT section score is a multiple of 10 from 200 to 800'],
    [{ ...full, act: 37 }, 'The ACT composite is a whole number from 1 to 36'],
    [{ ...full, gpa: 4.3 }, 'The unweighted GPA is a number from 0 to 4'],
    [{ ...full, yearlyBudget: -1 }, 'The yearly budget is a whole number of dollars'],
    [{ ...full, gpa: undefined }, 'is missing "gpa"'],
  ])('refuses %j with a clear message and keeps the saved profile', async (body, message) => {
    const r = await as(gw, alice).post('/update-academic-profile', body);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(message);
    expect(
      (await as(gw, alice).get<Reply<AcademicProfile>>('/get-academic-profile')).body.data,
    ).toMatchObject(full);
  });

  it("answers 403 to another student's uid and changes nothing of theirs", async () => {
    const get = await as(gw, bob).get('/get-academic-profile', { userId: alice.uid });
    expect(get.status).toBe(403);
    const post = await as(gw, bob).post('/update-academic-profile', {
      ...full,
      satMath: 200,
      userId: alice.uid,
    });
    expect(post.status).toBe(403);
    expect((await as(gw, alice).get<Reply<AcademicProfile>>('/get-academic-profile')).body.data.satMath).toBe(
      710,
    );
  });

  it("is in the export of the student's data", async () => {
    const r = await as(gw, alice).get<Reply<{ academicProfile: AcademicProfile }>>('/export-my-data');
    expect(r.body.data.academicProfile).toMatchObject(full);
  });

  it('is cleared by saving nothing', async () => {
    const cleared = await as(gw, bob).post<Reply<AcademicProfile>>('/update-academic-profile', {
      satReadingWriting: null,
      satMath: null,
      act: 24,
      gpa: null,
      yearlyBudget: null,
      testOptional: [],
    });
    expect(cleared.body.data.act).toBe(24);
    const none = await as(gw, bob).post<Reply<AcademicProfile>>('/update-academic-profile', {
      satReadingWriting: null,
      satMath: null,
      act: null,
      gpa: null,
      yearlyBudget: null,
      testOptional: [],
    });
    expect(none.body.data.updatedAt).toBeNull();
  });
});
