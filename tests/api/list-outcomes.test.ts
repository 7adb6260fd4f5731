// Issue 48: how students like me do there. The completion rates get-list-outcomes answers for a random
// sample of listed colleges equal the official year file's values, as the repo's fixture rows carry them
// (or both are empty); the route is the student's own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { loadSnapshot } from '@ct/colleges/snapshot';
import type { ListOutcome } from '@ct/contracts';
import { createVerifiedUser, gatewaySuite, SCORECARD_CSV, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../scripts/data/build-snapshot.ts';

type Row = Record<string, string>;
const official = parse(fs.readFileSync(SCORECARD_CSV), { columns: true }) as Row[];
const { gw } = gatewaySuite();
let student: TestUser;

/** The official cell as a number, null when empty: what the answer must carry. */
const cell = (r: Row, col: string) => (r[col]?.trim() ? Number(r[col]) : null);

/** A seeded shuffle, so a failing sample can be run again (its seed is in the failure message). */
function sample<T>(list: T[], n: number, seed: number): T[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, n);
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'list-outcomes-'));
  const file = path.join(dir, 'snapshot.json.gz');
  await buildSnapshot({ input: SCORECARD_CSV, out: file, released: '2025-01-16', dataYear: '2021-22' });
  student = await createVerifiedUser({ name: 'Outcome Student' });
  await loadSnapshot(gw.db, { file, grid: null });
  fs.rmSync(dir, { recursive: true, force: true });
}, 300_000);

const add = (name: string) =>
  gw.api('POST', '/api/add-user-college', {
    token: student.idToken,
    body: { userId: student.uid, collegeName: name },
  });
const outcomes = async (token = student.idToken, userId = student.uid) =>
  gw.api('GET', '/api/get-list-outcomes', { token, query: { userId } });

describe('get-list-outcomes', { timeout: 300_000 }, () => {
  it('answers for 20 random listed colleges exactly what the official file holds', async () => {
    // Institutions whose official name is theirs alone in the fixture (a name is what a list holds), with
    // Harvard (the example) and a two-year college always among them.
    const counts = new Map<string, number>();
    for (const r of official) counts.set(r.INSTNM!, (counts.get(r.INSTNM!) ?? 0) + 1);
    const unique = official.filter((r) => counts.get(r.INSTNM!) === 1);
    const harvard = unique.find((r) => r.UNITID === '166027')!;
    const twoYear = unique.find((r) => !r.C150_4_PELL && r.C150_L4_PELL)!;
    const seed = Number(process.env.OUTCOMES_SEED) || Date.now() % 2 ** 31;
    const rest = unique.filter((r) => r !== harvard && r !== twoYear);
    const chosen = [harvard, twoYear, ...sample(rest, 18, seed)];
    for (const r of chosen) expect((await add(r.INSTNM!)).status, r.INSTNM).toBe(200);

    const res = await outcomes();
    expect(res.status).toBe(200);
    const got = new Map((res.body as { colleges: ListOutcome[] }).colleges.map((c) => [c.scorecardId, c]));
    expect(got.size).toBe(20);
    for (const r of chosen) {
      const c = got.get(Number(r.UNITID));
      const where = `${r.INSTNM} (${r.UNITID}), sample seed ${seed}`;
      expect(c, where).toBeDefined();
      expect(
        {
          pell: c!.pellGraduationRate,
          noPellNoLoan: c!.noPellNoLoanGraduationRate,
          pooled: c!.graduationRate,
          firstGen: c!.firstGenCompletionRate,
          all: c!.allStudentsGraduationRate,
          twoYearPell: c!.lessThan4yr?.pellGraduationRate ?? null,
          twoYearNoPellNoLoan: c!.lessThan4yr?.noPellNoLoanGraduationRate ?? null,
        },
        where,
      ).toEqual({
        pell: cell(r, 'C150_4_PELL'),
        noPellNoLoan: cell(r, 'C150_4_NOLOANNOPELL'),
        pooled: cell(r, 'C150_4_POOLED'),
        firstGen: cell(r, 'FIRSTGEN_COMP_ORIG_YR4_RT'),
        all: cell(r, 'C150_4'),
        twoYearPell: cell(r, 'C150_L4_PELL'),
        twoYearNoPellNoLoan: cell(r, 'C150_L4_NOLOANNOPELL'),
      });
      expect(c!.year, where).toBe('2021-22');
      expect(c!.source?.url, where).toBe(`https://collegescorecard.ed.gov/school/?${r.UNITID}`);
    }
    // The example, and the two-year college named as such.
    expect(got.get(166027)).toMatchObject({ pellGraduationRate: 0.9394, noPellNoLoanGraduationRate: 0.9725 });
    expect(got.get(Number(twoYear.UNITID))!.gap).toBe('two-year');
    expect(got.get(166027)!.gap).toBeNull();
  });

  it("refuses another student's id with 403", async () => {
    const other = await createVerifiedUser({ name: 'Someone Else' });
    const res = await outcomes(other.idToken, student.uid);
    expect(res.status).toBe(403);
  });
});
