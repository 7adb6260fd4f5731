import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { userDataKeys as k } from './keys';
import { listChanged } from './student';

/** A client holding every query of one student, as the pages leave it. */
function seeded(uid: string, college: string) {
  const qc = new QueryClient();
  const set = (key: readonly unknown[], data: unknown) => qc.setQueryData(key, data);
  set(k.colleges(uid), [{ collegeId: 'old', collegeName: 'Old College' }]);
  set(k.checklist(uid, college), { applicationRequirements: [] });
  set(k.resources(uid, college), { resources: {} });
  set(k.recommenders(uid, college), { recommenders: [], askBy: null });
  set(k.deadlines(uid), []);
  set(k.myPrompts(uid), []);
  set(k.notes(uid), [{ id: 'n1' }]);
  set(k.checklist(uid, 'Other College'), { essays: [] });
  return qc;
}

const invalid = (qc: QueryClient, key: readonly unknown[]) => qc.getQueryState(key)?.isInvalidated;

describe('a change to the student list of colleges', () => {
  it('refreshes the deadlines and essay prompts, and forgets what was shown for that college', () => {
    const qc = seeded('u1', 'Bowdoin College');
    listChanged(qc, 'u1', 'Bowdoin College');
    expect(invalid(qc, k.colleges('u1'))).toBe(true);
    expect(invalid(qc, k.deadlines('u1'))).toBe(true);
    expect(invalid(qc, k.myPrompts('u1'))).toBe(true);
    for (const key of [
      k.checklist('u1', 'Bowdoin College'),
      k.resources('u1', 'Bowdoin College'),
      k.recommenders('u1', 'Bowdoin College'),
    ])
      expect(qc.getQueryState(key)).toBeUndefined();
    // Nothing else of the student's is read again.
    expect(invalid(qc, k.notes('u1'))).toBe(false);
    expect(qc.getQueryData(k.checklist('u1', 'Other College'))).toEqual({ essays: [] });
  });

  it('takes the list the server answered with, without asking again', () => {
    const qc = seeded('u1', 'Bowdoin College');
    const left = [{ collegeId: 'colby college', collegeName: 'Colby College' }];
    listChanged(qc, 'u1', 'Bowdoin College', left);
    expect(qc.getQueryData(k.colleges('u1'))).toEqual(left);
    expect(invalid(qc, k.colleges('u1'))).toBe(false);
    expect(invalid(qc, k.deadlines('u1'))).toBe(true);
  });

  it("touches no other student's queries", () => {
    const qc = seeded('u2', 'Bowdoin College');
    listChanged(qc, 'u1', 'Bowdoin College');
    expect(invalid(qc, k.deadlines('u2'))).toBe(false);
    expect(qc.getQueryData(k.checklist('u2', 'Bowdoin College'))).toBeDefined();
  });
});
