// Issue 44, end to end: the Common App grid says Harvard's early plan is Restrictive Early Action (fee $90,
// tests required). An AI answer read in the background says Early Decision, another fee and another test
// policy. Through the embedded gateway, real Postgres and Redis, the worker and the local OpenAI: every
// view a student opens keeps the grid's plan, fee and policy, and an admin sees the answer held with both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { loadSnapshot } from '@ct/colleges/snapshot';
import { readSnapshotFile } from '@ct/colleges/snapshot-file';
import {
  entryYear,
  localToday,
  type College,
  type DeadlineItem,
  type Demographics,
  type FactReview,
  type IngestionRequest,
  type SeasonCollege,
  type UnverifiedFact,
} from '@ct/contracts';
import { officialDataYears } from '@ct/contracts/planning';
import { ED_RULE } from '@ct/contracts/season';
import { buildFactsAnswer, createVerifiedUser, type ResponsesRequest, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { fitOf } from '../../web/src/features/fit/fit.ts';
import { aiCollegesSuite, eventually } from './colleges-helpers.ts';

const HARVARD = 'Harvard University';
const HARVARD_ID = 166027;

// This cycle's dates, as a page read today would give them.
const entering = entryYear(localToday());
const ED_DATE = `${entering - 1}-11-01`;
const RD_DATE = `${entering}-01-01`;

/** What a model wrongly reads on Harvard's own pages: Early Decision, a $105 fee, tests optional. */
const WRONG_ANSWER = buildFactsAnswer({
  officialName: HARVARD,
  city: 'Cambridge',
  state: 'MA',
  website: 'https://www.harvard.edu/',
  deadlines: {
    value: [
      { type: 'Early Decision', date: ED_DATE },
      { type: 'Regular Decision', date: RD_DATE },
    ],
    sourceUrl: 'https://college.harvard.edu/admissions/apply/application-timeline',
  },
  requirements: {
    value: {
      transcripts: 'Required',
      SAT_ACT: 'Test optional',
      teacherRecommendations: 'Two teacher letters',
      applicationFee: '$105',
    },
    sourceUrl: 'https://college.harvard.edu/admissions/apply/first-year-applicants',
  },
});

const { gw } = aiCollegesSuite(
  { OUTBOX_RELAY_MS: '200' },
  {
    responder: (req: ResponsesRequest) =>
      req.schemaName === 'college_facts' && req.input.includes(HARVARD) ? { value: WRONG_ANSWER } : undefined,
  },
);

let student: TestUser;
let admin: TestUser;

/**
 * Harvard as the product's first start stores it: the shipped snapshot's row (its figures dated 2021-22)
 * and the shipped Common App grid's plans, fee and test policy, through the real snapshot load.
 */
async function loadHarvard(): Promise<void> {
  const snapshot = readSnapshotFile();
  const id = snapshot.columns.indexOf('UNITID');
  const rows = snapshot.rows.filter((r) => Number(r[id]) === HARVARD_ID);
  expect(rows).toHaveLength(1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'official-facts-'));
  try {
    const file = path.join(dir, 'snapshot.json.gz');
    fs.writeFileSync(
      file,
      gzipSync(JSON.stringify({ ...snapshot, version: `${snapshot.version}-harvard`, rows })),
    );
    const r = await loadSnapshot(gw.db, { file });
    expect(r).toMatchObject({ loaded: true, colleges: 1, withGrid: 1, dataYear: '2021-22' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Harvard Hopeful' }),
    createVerifiedUser({ name: 'Ada Admin' }),
  ]);
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
  await loadHarvard();
});

type Body<T> = { success: boolean; message: string } & T;
const get = <T>(p: string, query: Record<string, string> = {}, token = student.idToken) =>
  gw.api<Body<T>>('GET', p, { token, query });

type CollegeDeadline = Extract<DeadlineItem, { deadlineType: string }>;

/** Harvard's deadlines on the student's Deadlines page. */
const deadlines = async () =>
  (await get<{ deadlines: DeadlineItem[] }>('/api/get-deadlines')).body.deadlines.filter(
    (d): d is CollegeDeadline => 'deadlineType' in d && d.collegeName === HARVARD,
  );

describe(
  "Harvard's official facts outrank an AI answer in every view (issue 44)",
  { timeout: 90_000 },
  () => {
    it('a student adds Harvard; the background answer says Early Decision, and nothing follows it', async () => {
      // Before: the grid's plans, fee and policy.
      const before = (await get<{ data: College }>('/api/search-college', { name: HARVARD })).body.data;
      expect(before.info.deadlines.map((d) => d.type)).toEqual([
        'Restrictive Early Action',
        'Regular Decision',
      ]);
      expect(before.info.requirements).toMatchObject({ applicationFeeUsd: 90, testPolicy: 'required' });

      const added = await gw.api<Body<object>>('POST', '/api/add-user-college', {
        token: student.idToken,
        body: { collegeName: HARVARD },
      });
      expect(added.status).toBe(200);
      // The enrichment runs in the background: the worker asks the local OpenAI and places the answer.
      const enriched = await eventually(
        async () => {
          const r = await get<{ data: IngestionRequest }>('/api/ingestion-status', { name: HARVARD });
          return ['done', 'failed'].includes(r.body.data?.state ?? '') ? r.body.data : undefined;
        },
        30_000,
        'the enrichment of Harvard',
      );
      expect(enriched).toMatchObject({ state: 'done', collegeName: HARVARD });
      // The answer's this-cycle Regular Decision date (a plan the grid names, last cycle's date there) is
      // taken, and the college.ingested event carries it to the list: the answer did reach every view.
      const listed = await eventually(
        async () => {
          const d = await deadlines();
          return d.some(
            (x) => x.deadlineType === 'Regular Decision' && x.deadlineDate === RD_DATE && !x.projected,
          )
            ? d
            : undefined;
        },
        20_000,
        "the answer's Regular Decision date on the student's deadlines",
      );

      // get-deadlines: the early plan is the grid's Restrictive Early Action, never Early Decision.
      expect(listed.map((d) => d.deadlineType).sort()).toEqual([
        'Regular Decision',
        'Restrictive Early Action',
      ]);
      expect(JSON.stringify(listed)).not.toContain('Early Decision');
      // Each date names the page that states it: the grid's plan the grid, this cycle's date Harvard's page.
      const sourceOf = (type: string) => listed.find((d) => d.deadlineType === type)?.sourceUrl;
      expect(sourceOf('Restrictive Early Action')).toBe('https://content.commonapp.org/Files/ReqGrid.pdf');
      expect(sourceOf('Regular Decision')).toBe(
        'https://college.harvard.edu/admissions/apply/application-timeline',
      );

      // get-season: the plans offered are REA and RD; no binding rule anywhere.
      const season = (await get<{ colleges: SeasonCollege[] }>('/api/get-season')).body.colleges;
      const harvardSeason = season.find((c) => c.collegeName === HARVARD)!;
      expect(harvardSeason.plansOffered).toEqual(['REA', 'RD']);
      expect(harvardSeason.deadlines.map((d) => d.type).sort()).toEqual([
        'Regular Decision',
        'Restrictive Early Action',
      ]);
      expect(JSON.stringify(season)).not.toContain('Early Decision');
      expect(JSON.stringify(season)).not.toContain(ED_RULE);

      // The calendar file: its events name Restrictive Early Action, never Early Decision.
      const ics = await gw.api<string>('GET', '/api/download-deadlines.ics', { token: student.idToken });
      expect(ics.status).toBe(200);
      const unfolded = ics.body.replace(/\r\n[ \t]/g, '');
      const summaries = unfolded.split('\r\n').filter((l) => l.startsWith(`SUMMARY:${HARVARD}`));
      expect(summaries.some((l) => l.includes('Restrictive Early Action'))).toBe(true);
      expect(summaries.some((l) => l.includes('Regular Decision'))).toBe(true);
      expect(unfolded).not.toContain('Early Decision');

      // The college view: the grid's plans, fee and test policy stay, with the grid as their source.
      const found = await get<{ data: College; unverified?: UnverifiedFact[] }>('/api/search-college', {
        name: HARVARD,
      });
      const c = found.body.data;
      expect(c.info.deadlines.map((d) => d.type)).toEqual(['Restrictive Early Action', 'Regular Decision']);
      expect(c.info.requirements).toMatchObject({
        applicationFee: '$90',
        applicationFeeUsd: 90,
        SAT_ACT: 'Required',
        testPolicy: 'required',
      });
      expect(c.sources['info.requirements']!.title).toMatch(/^Common App requirements grid/);
      expect(JSON.stringify(c)).not.toContain('Early Decision');
      expect(JSON.stringify(c)).not.toContain('$105');
      expect(JSON.stringify(c)).not.toMatch(/test optional/i);
      // The student whose add gathered the answer sees it only apart, marked unverified (ADR 0070), with
      // the official value it contradicts beside it.
      const unverified = found.body.unverified ?? [];
      expect(unverified.map((u) => u.kind).sort()).toEqual(['deadlines', 'requirements']);
      const shownHeld = unverified.find((u) => u.kind === 'deadlines')!;
      expect(shownHeld.items).toEqual([`Early Decision: ${ED_DATE}`]);
      expect(shownHeld.reason).toMatch(/^It contradicts the official deadlines.*Restrictive Early Action: /);

      const view = await get<{ demographics: Demographics }>('/api/get-college-resources-demographics', {
        collegeName: HARVARD,
      });
      expect(view.status).toBe(200);
      expect(view.body.demographics.admissionRate).toBe(0.0401);
      expect(view.body.demographics.dataYears?.admissions).toBe('2021-22');
      expect(JSON.stringify(view.body)).not.toContain('Early Decision');
      expect(JSON.stringify(view.body)).not.toMatch(/test optional|\$105/i);

      // The admin's review lists the held answer with both values and both sources.
      const reviews = (await get<{ facts: FactReview[] }>('/api/admin/fact-reviews', {}, admin.idToken)).body
        .facts;
      const held = reviews.filter((f) => f.collegeName === HARVARD);
      const heldDeadlines = held.find((f) => f.kind === 'deadlines')!;
      expect(heldDeadlines.items).toEqual([`Early Decision: ${ED_DATE}`]);
      expect(heldDeadlines.sourceUrl).toBe(
        'https://college.harvard.edu/admissions/apply/application-timeline',
      );
      expect(heldDeadlines.reason).toContain('Restrictive Early Action: ');
      expect(heldDeadlines.reason).toContain('Common App requirements grid');
      const heldRequirements = held.find((f) => f.kind === 'requirements')!;
      expect(heldRequirements.items.sort()).toEqual(['SAT_ACT: Test optional', 'applicationFee: $105']);
      expect(heldRequirements.reason).toContain('applicationFee: $90');
      expect(heldRequirements.reason).toContain('SAT_ACT: Required');
      expect(heldRequirements.reason).toContain('Common App requirements grid');
    });

    it("the overview's fit reason dates Harvard's admission rate as the college view does: 2021-22", async () => {
      // The season overview reads its colleges in one batch and computes the fit reason in the browser.
      const batch = (
        await get<{ colleges: Array<{ name: string; college: College | null }> }>('/api/get-colleges', {
          names: HARVARD,
        })
      ).body.colleges;
      const doc = batch.find((b) => b.name === HARVARD)!.college!;
      expect(officialDataYears(doc.demographics.dataYears, doc.sources).admissions).toBe('2021-22');
      const reason = fitOf(doc, null).reason;
      expect(reason).toContain('It admits 4.0% of applicants (College Scorecard, 2021-22)');
      expect(reason).not.toContain('year not stated');
    });
  },
);
