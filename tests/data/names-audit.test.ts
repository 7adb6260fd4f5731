// Issue 25, measured through the API on the shipped data: every institution reachable by its display name
// (twins told apart), no Scorecard alias leading away from the institution that bears a name, every
// well-known short name finding its college first, and the suggestion hit rates of the data audit.
import { RoleRepository } from '@ct/auth/repositories/roles';
import { loadSnapshot } from '@ct/colleges/snapshot';
import { readShortNames } from '@ct/colleges/short-names';
import { readSnapshotFile, snapshotRecords } from '@ct/colleges/snapshot-file';
import { normaliseCollegeName } from '@ct/contracts';
import { createVerifiedUser, startTestGateway, type TestGateway, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditNames, type NamesApi, type NamesReport } from '../../scripts/data/audit/names.ts';

let gw: TestGateway;
let admin: TestUser;
let api: NamesApi;
let report: NamesReport;

beforeAll(async () => {
  [gw, admin] = await Promise.all([startTestGateway(), createVerifiedUser({ name: 'Audit Admin' })]);
  await loadSnapshot(gw.db);
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
  api = (path, query) => gw.api('GET', path, { token: admin.idToken, query });
  report = await auditNames(api, { shortNames: readShortNames() });
  console.log(
    JSON.stringify({ ...report, misses6: report.misses6.length, misses10: report.misses10.length }, null, 1),
  );
}, 600_000);
afterAll(() => gw?.close());

describe('names of the shipped institutions (issue 25)', { timeout: 600_000 }, () => {
  it('reaches every institution by its display name, twins told apart by what the data has', async () => {
    expect(report.institutions).toBe(readSnapshotFile().rows.length);
    expect(report.unreachable).toEqual([]);
    const search = async (name: string) =>
      (await api<{ data: { name: string; scorecardId: number } }>('/api/search-college', { name })).body.data;
    expect(await search('Western Technical College (El Paso, TX, 1,303 undergraduates)')).toMatchObject({
      scorecardId: 224679,
    });
    expect(await search('Western Technical College (El Paso, TX, 566 undergraduates)')).toMatchObject({
      scorecardId: 224660,
    });
    // The place alone still finds one of them: the larger.
    expect((await search('Western Technical College (El Paso, TX)')).scorecardId).toBe(224679);
    const names = (
      await api<{ colleges: Array<{ name: string }> }>('/api/admin/colleges', {
        name: 'Cannella School of Hair Design',
        limit: '200',
      })
    ).body.colleges.map((c) => c.name);
    expect(names.some((n) => /\(Chicago, IL\).*\(Chicago, IL\)/.test(n))).toBe(false);
  });

  it('never lets a Scorecard alias lead a search away from the institution whose official name it is', async () => {
    const official = new Map<string, number[]>();
    const aliases: Array<{ alias: string; of: number }> = [];
    for (const r of snapshotRecords(readSnapshotFile())) {
      const k = normaliseCollegeName(r.INSTNM!);
      official.set(k, [...(official.get(k) ?? []), Number(r.UNITID)]);
      for (const a of (r.ALIAS ?? '').split(/[|,;]/))
        if (a.trim()) aliases.push({ alias: a.trim(), of: Number(r.UNITID) });
    }
    const clashes = aliases.filter((a) => {
      const owners = official.get(normaliseCollegeName(a.alias));
      return owners && !owners.includes(a.of);
    });
    expect(clashes.length).toBeGreaterThanOrEqual(30);
    const wrong: string[] = [];
    for (const c of clashes) {
      const r = await api<{ data?: { scorecardId: number } }>('/api/search-college', { name: c.alias });
      const owners = official.get(normaliseCollegeName(c.alias))!;
      if (!owners.includes(r.body.data?.scorecardId ?? -1))
        wrong.push(`${c.alias} → ${r.body.data?.scorecardId}`);
    }
    expect(wrong).toEqual([]);
  });

  it('finds every well-known short name’s college and suggests it first', () => {
    expect(report.shortNameMisses).toEqual([]);
    expect(report.shortNameHits).toBe(report.shortNames);
  });

  it('lists the college for the first 6 and 10 characters of its name whenever 10 suggestions can', () => {
    expect(report.sample).toBe(200);
    // A beginning that more than 10 names share ("Univer...") cannot list them all in 10 suggestions;
    // every other sampled college must be listed.
    expect(report.avoidableMisses6).toEqual([]);
    expect(report.avoidableMisses10).toEqual([]);
    expect(report.hitRate6).toBeGreaterThan(report.ceiling6 - 0.1);
    expect(report.hitRate10).toBeGreaterThan(report.ceiling10 - 0.1);
  });

  it('finds a unique part of a name, and offers the closest college for a near miss', async () => {
    const suggest = async (query: string) =>
      (await api<{ suggestions: string[] }>('/api/get-college-suggestions', { query })).body.suggestions;
    expect(await suggest('Chapel Hill')).toContain('University of North Carolina at Chapel Hill');
    expect(await suggest('Ann Arbor')).toContain('University of Michigan-Ann Arbor');
    expect((await suggest('stanford'))[0]).toBe('Stanford University');
    const miss = await api<{ message: string }>('/api/search-college', { name: 'Stanferd Universty' });
    expect(miss.status).toBe(404);
    expect(miss.body.message).toBe(
      'We have no data for "Stanferd Universty" yet. Did you mean "Stanford University"?',
    );
  });
});
