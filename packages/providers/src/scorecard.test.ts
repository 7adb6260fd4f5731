import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { SCORECARD_CSV, SCORECARD_DICTIONARY_CSV, startScorecardFake, type ScorecardFake } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from './errors.ts';
import { ScorecardClient } from './scorecard.ts';
import { governmentData, recordFromCsv, SCORECARD_FIELDS, splitAliases, url } from './scorecard-fields.ts';

type Row = Record<string, string>;
const rows = new Map(
  (parse(fs.readFileSync(SCORECARD_CSV), { columns: true }) as Row[]).map((r) => [r.UNITID!, r]),
);

/**
 * What the document must hold for an official CSV row, written out here column by column (independently
 * of the product's field table): the spec's demographics and finance, net prices from the public series
 * for a public institution and the private one otherwise.
 */
function expectedFromCsv(row: Row) {
  const n = (c: string) => (row[c] === undefined || row[c] === '' ? null : Number(row[c]));
  const s = row.CONTROL === '1' ? 'PUB' : 'PRIV';
  const url = (v: string | undefined) =>
    v ? new URL(/^https?:/.test(v) ? v : `https://${v}`).toString() : null;
  const graduationRate = n('C150_4') ?? n('C150_L4');
  return {
    schoolCity: row.CITY,
    schoolState: row.STABBR,
    schoolSize: n('UGDS'),
    schoolGradSize: n('GRADS'),
    // The campus's own rate; where the Scorecard has none, all campuses' rate (ADM_RATE_ALL), so labelled.
    admissionRate: n('ADM_RATE') ?? n('ADM_RATE_ALL'),
    ...(n('ADM_RATE') === null && n('ADM_RATE_ALL') !== null
      ? { admissionRateScope: 'all-campuses' as const }
      : {}),
    studentFacRatio: n('STUFACR'),
    priceCalcUrl: url(row.NPCURL),
    graduationRate,
    ownership: { '1': 'Public', '2': 'Private nonprofit', '3': 'Private for-profit' }[row.CONTROL!],
    // OPENADMP: 1 open admissions, 2 not; anything else is not reported.
    openAdmissions: n('OPENADMP') === 1 ? true : n('OPENADMP') === 2 ? false : null,
    // MAIN: 1 main campus, 0 branch; PREDDEG: the degree mainly awarded (3 bachelor's), as published.
    mainCampus: n('MAIN') === 1 ? true : n('MAIN') === 0 ? false : null,
    predominantDegree: n('PREDDEG'),
    admissionTests: {
      satReading25: n('SATVR25'),
      satReading75: n('SATVR75'),
      satMath25: n('SATMT25'),
      satMath75: n('SATMT75'),
      act25: n('ACTCM25'),
      act75: n('ACTCM75'),
      testRequirement: n('ADMCON7'),
    },
    retentionRate: n('RET_FT4'),
    // Completion by Pell Grant, loan and first-generation status (issue 48), each column as published.
    outcomes: {
      pellGraduationRate: n('C150_4_PELL'),
      noPellNoLoanGraduationRate: n('C150_4_NOLOANNOPELL'),
      pooledGraduationRate: n('C150_4_POOLED'),
      firstGenCompletionRate: n('FIRSTGEN_COMP_ORIG_YR4_RT'),
      lessThan4yrPellGraduationRate: n('C150_L4_PELL'),
      lessThan4yrNoPellNoLoanGraduationRate: n('C150_L4_NOLOANNOPELL'),
      allGraduationRate: n('C150_4'),
      lessThan4yrGraduationRate: n('C150_L4'),
    },
    demographics: {
      white: n('UGDS_WHITE'),
      black: n('UGDS_BLACK'),
      asian: n('UGDS_ASIAN'),
      hispanic: n('UGDS_HISP'),
      unknown: n('UGDS_UNKN'),
      // Not in this CSV (only in the ~100 MB Most-Recent-Cohorts file): stays null, never estimated
      firstGen: null,
      aian: n('UGDS_AIAN'),
      nhpi: n('UGDS_NHPI'),
      twoOrMore: n('UGDS_2MOR'),
      nonResident: n('UGDS_NRA'),
    },
    finance: {
      avgFamilyIncome: null,
      medianFamilyIncome: null,
      fafsaApplications: null,
      studentsGrantsOrLoans: null,
      costAttendance: n('COSTT4_A') ?? n('COSTT4_P'),
      inStateTuition: n('TUITIONFEE_IN'),
      outOfStateTuition: n('TUITIONFEE_OUT'),
      medianEarnings: n('MD_EARN_WNE_P10'),
      netPrice0to30000: n(`NPT41_${s}`),
      netPrice30001to48000: n(`NPT42_${s}`),
      netPrice48001to75000: n(`NPT43_${s}`),
      netPrice75001to110000: n(`NPT44_${s}`),
      netPrice110001plus: n(`NPT45_${s}`),
      graduationRate,
      pellGrantRate: n('PCTPELL'),
      federalLoanRate: n('PCTFLOAN'),
      avgNetPrice: n(`NPT4_${s}`),
      // Not in this CSV (the merged year files leave debt empty): stays null
      medianDebt: n('GRAD_DEBT_MDN'),
    },
  };
}

// Alabama A & M University, The University of Texas at Austin, Miami Dade College (open admissions)
const PUBLIC = ['100654', '228778', '135717'];
const PRIVATE = ['166027', '130794']; // Harvard University, Yale University

let fake: ScorecardFake;
let client: ScorecardClient;
beforeAll(async () => {
  fake = await startScorecardFake();
  client = new ScorecardClient({ baseUrl: fake.url, apiKey: fake.apiKey, timeoutMs: 1000 });
});
afterAll(() => fake?.close());

describe('College Scorecard mapping, field by field against the official CSV', () => {
  it.each([...PUBLIC, ...PRIVATE])('maps institution %s from the API', async (id) => {
    const row = rows.get(id)!;
    const school = await client.getSchool(Number(id));
    expect(school).not.toBeNull();
    expect(school!.scorecardId).toBe(Number(id));
    expect(school!.name).toBe(row.INSTNM);
    expect(school!.demographics).toEqual(expectedFromCsv(row));
  });

  it.each([...PUBLIC, ...PRIVATE])('maps institution %s from the CSV row (bulk import)', (id) => {
    const row = rows.get(id)!;
    expect(governmentData(recordFromCsv(row))!.demographics).toEqual(expectedFromCsv(row));
  });

  it("shows all campuses' admission rate, so labelled, where the campus has none", () => {
    const row = rows.get('204006')!; // Miami University-Hamilton: no ADM_RATE, an ADM_RATE_ALL
    expect(row.ADM_RATE).toBe('');
    const d = governmentData(recordFromCsv(row))!.demographics;
    expect(d.admissionRate).toBe(Number(row.ADM_RATE_ALL));
    expect(d.admissionRateScope).toBe('all-campuses');
    const own = governmentData(recordFromCsv(rows.get('166027')!))!.demographics;
    expect(own.admissionRate).toBe(Number(rows.get('166027')!.ADM_RATE));
    expect(own.admissionRateScope).toBeUndefined();
  });

  it('never calls the head count D_PCTPELL_PCTFLOAN students with grants or loans', () => {
    const row = { ...rows.get('166027')!, D_PCTPELL_PCTFLOAN: '7000' };
    expect(governmentData(recordFromCsv(row))!.demographics.finance.studentsGrantsOrLoans).toBeNull();
  });

  it('keeps the port of a link published without a scheme, over plain HTTP', () => {
    expect(url('grizzlyden.missouristate.edu:9010/npcalc.htm')).toBe(
      'http://grizzlyden.missouristate.edu:9010/npcalc.htm',
    );
    expect(url('www2.amridgeuniversity.edu:9091/')).toBe('http://www2.amridgeuniversity.edu:9091/');
    expect(url('https://npc.example.edu:8443/x')).toBe('https://npc.example.edu:8443/x');
    expect(url('www.aum.edu/npc')).toBe('https://www.aum.edu/npc');
  });

  it('keeps the data years it is given, and none when it is given none', () => {
    const row = rows.get('166027')!;
    expect(governmentData(recordFromCsv(row))!.demographics.dataYears).toBeUndefined();
    const years = { netPrice: '2021-22', cost: '2021-22', earnings: '2020-21' };
    expect(governmentData(recordFromCsv(row), { dataYears: years })!.demographics.dataYears).toEqual(years);
  });

  it('takes net prices from the series of the ownership', async () => {
    const harvard = (await client.getSchool(166027))!;
    expect(harvard.demographics.finance.netPrice0to30000).toBe(Number(rows.get('166027')!.NPT41_PRIV));
    expect(harvard.demographics.finance.avgNetPrice).toBe(Number(rows.get('166027')!.NPT4_PRIV));
    const aamu = (await client.getSchool(100654))!;
    expect(aamu.demographics.finance.netPrice0to30000).toBe(Number(rows.get('100654')!.NPT41_PUB));
    expect(aamu.demographics.finance.avgNetPrice).toBe(Number(rows.get('100654')!.NPT4_PUB));
  });

  it('uses the API field names of the official data dictionary', () => {
    const dict = parse(fs.readFileSync(SCORECARD_DICTIONARY_CSV), { columns: true }) as Row[];
    const byVariable = new Map(dict.map((d) => [d.variable_name!, d]));
    for (const [key, f] of Object.entries(SCORECARD_FIELDS)) {
      const d = byVariable.get(f.variable);
      expect(d, `${key}: ${f.variable} is in the dictionary`).toBeDefined();
      const cat = d!.dev_category;
      const api =
        cat === 'root'
          ? d!.developer_friendly_name
          : cat === 'school'
            ? `school.${d!.developer_friendly_name}`
            : `latest.${cat}.${d!.developer_friendly_name}`;
      expect(f.api, key).toBe(api);
    }
  });

  it('splits the free-text alias field the ways the Scorecard writes it', () => {
    expect(splitAliases('AUM||Auburn University at Montgomery|Auburn Montgomery')).toEqual([
      'AUM',
      'Auburn University at Montgomery',
      'Auburn Montgomery',
    ]);
    expect(splitAliases('Lurleen B. Wallace Community College, LBW Community College, LBWCC')).toEqual([
      'Lurleen B. Wallace Community College',
      'LBW Community College',
      'LBWCC',
    ]);
    // A comma inside one of several names separated otherwise belongs to that name
    expect(splitAliases('UCSF  UC San Francisco  University of California, San Francisco')).toEqual([
      'UCSF',
      'UC San Francisco',
      'University of California, San Francisco',
    ]);
    expect(splitAliases('VSU; Valdosta State')).toEqual(['VSU', 'Valdosta State']);
  });
});

describe('ScorecardClient', () => {
  it('finds a school by its official name, an alias, or the words a student typed', async () => {
    expect((await client.findSchool('Harvard University'))!.school.scorecardId).toBe(166027);
    expect((await client.findSchool('MIT'))!.school.name).toBe('Massachusetts Institute of Technology');
    expect((await client.findSchool('university of michigan'))!.school.name).toBe(
      'University of Michigan-Ann Arbor',
    );
    expect(await client.findSchool('Qwxyzzy Imaginary Academy')).toBeNull();
  });

  it('reports how many other institutions share the official name', async () => {
    const m = (await client.findSchool('Columbia College'))!;
    expect(m.school.name).toBe('Columbia College');
    expect(m.sameNameCount).toBe(3);
  });

  it('turns provider failures into readable, classified errors', async () => {
    const bad = new ScorecardClient({ baseUrl: fake.url, apiKey: 'wrong', timeoutMs: 1000 });
    await expect(bad.getSchool(166027)).rejects.toMatchObject({ kind: 'auth', retryable: false });
    const cases = [
      ['500', 'unavailable', 'The College Scorecard API did not answer (HTTP 500)'],
      ['429', 'rate-limited', 'The College Scorecard API is rate-limiting us (HTTP 429)'],
      ['malformed', 'malformed', 'The College Scorecard API answered with a body that is not valid JSON'],
      ['timeout', 'timeout', 'The College Scorecard API did not answer in time'],
    ] as const;
    const quick = new ScorecardClient({ baseUrl: fake.url, apiKey: fake.apiKey, timeoutMs: 300 });
    for (const [mode, kind, message] of cases) {
      fake.server.fail(mode, 1);
      const err = await quick.getSchool(166027).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ kind, message, retryable: true });
    }
    expect((await quick.getSchool(166027))!.name).toBe('Harvard University');
  });

  it('never sends the key anywhere but the query of its own API', async () => {
    await client.getSchool(166027);
    const last = fake.server.requests.at(-1)!;
    expect(last.query.get('api_key')).toBe(fake.apiKey);
    expect(last.path).toBe('/v1/schools');
  });
});
