// The figures part of the data audit (issue 25), on the repo's fixtures: every institution of the fixture
// file, loaded as the product loads its snapshot and fetched through the API, equals the official row
// field by field; a wrong figure or a missing institution is reported.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { loadSnapshot } from '@ct/colleges/snapshot';
import { createVerifiedUser, SCORECARD_CSV, startTestGateway, type TestGateway } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDITED_FIELDS, auditFigures, type OfficialRow } from '../../scripts/data/audit/figures.ts';
import type { NamesApi } from '../../scripts/data/audit/names.ts';
import { buildSnapshot } from '../../scripts/data/build-snapshot.ts';

const official = parse(fs.readFileSync(SCORECARD_CSV), { columns: true }) as OfficialRow[];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'figures-audit-'));
let gw: TestGateway;
let api: NamesApi;

beforeAll(async () => {
  const file = path.join(dir, 'snapshot.json.gz');
  await buildSnapshot({ input: SCORECARD_CSV, out: file, released: '2025-01-16', dataYear: '2021-22' });
  const [started, admin] = await Promise.all([
    startTestGateway(),
    createVerifiedUser({ name: 'Audit Admin' }),
  ]);
  gw = started;
  await loadSnapshot(gw.db, { file, grid: null });
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
  api = (p, query) => gw.api('GET', p, { token: admin.idToken, query });
}, 600_000);
afterAll(async () => {
  await gw?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the figures audit', { timeout: 600_000 }, () => {
  it('finds every institution through the API with every figure equal to the official file', async () => {
    const r = await auditFigures(api, official);
    expect(r.institutions).toBe(official.length);
    expect(r.checked).toBe(official.length);
    expect(r.fields).toBe(AUDITED_FIELDS.length);
    expect(r.unreachable).toEqual([]);
    expect(r.mismatches).toEqual([]);
  });

  it('reports a figure that differs from the file, and an institution the API does not list', async () => {
    const harvard = official.find((r) => r.UNITID === '166027')!;
    const yale = official.find((r) => r.UNITID === '130794')!;
    await gw.db.query(
      `UPDATE colleges.college SET document = jsonb_set(document, '{demographics,schoolSize}', '1')
       WHERE scorecard_id = 166027`,
    );
    await gw.db.query('DELETE FROM colleges.college WHERE scorecard_id = 130794');
    const r = await auditFigures(api, [harvard, yale]);
    expect(r.mismatches).toEqual([
      {
        unitid: 166027,
        name: 'Harvard University',
        field: 'demographics.schoolSize',
        shown: 1,
        official: Number(harvard.UGDS),
      },
    ]);
    expect(r.unreachable).toEqual([{ unitid: 130794, name: 'Yale University' }]);
  });
});
