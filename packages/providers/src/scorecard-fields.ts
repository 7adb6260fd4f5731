import type { DataYears, Demographics } from '@ct/contracts';

/**
 * One College Scorecard data element: its column in the official CSV files (`variable`) and its field in
 * the API (`api`: `latest.<category>.<developer name>` for yearly data, `school.*` and root fields as is),
 * both from the official College Scorecard data dictionary (its columns the tests use are in
 * tests/fixtures/scorecard-dictionary.csv).
 */
export interface ScorecardField {
  variable: string;
  api: string;
}

const f = (variable: string, api: string): ScorecardField => ({ variable, api });

/** Every Scorecard element the product uses. */
export const SCORECARD_FIELDS = {
  id: f('UNITID', 'id'),
  name: f('INSTNM', 'school.name'),
  alias: f('ALIAS', 'school.alias'),
  city: f('CITY', 'school.city'),
  state: f('STABBR', 'school.state'),
  ownership: f('CONTROL', 'school.ownership'),
  mainCampus: f('MAIN', 'school.main_campus'),
  /** 0 not classified, 1 certificates, 2 associate's, 3 bachelor's, 4 graduate degrees (mainly awarded) */
  predominantDegree: f('PREDDEG', 'school.degrees_awarded.predominant'),
  schoolUrl: f('INSTURL', 'school.school_url'),
  priceCalculatorUrl: f('NPCURL', 'school.price_calculator_url'),
  size: f('UGDS', 'latest.student.size'),
  gradStudents: f('GRADS', 'latest.student.grad_students'),
  admissionRate: f('ADM_RATE', 'latest.admissions.admission_rate.overall'),
  /** The rate of all campuses sharing the 6-digit OPE ID, shown (so labelled) where ADM_RATE is missing */
  admissionRateAllCampuses: f('ADM_RATE_ALL', 'latest.admissions.admission_rate.by_ope_id'),
  studentFacultyRatio: f('STUFACR', 'latest.student.demographics.student_faculty_ratio'),
  white: f('UGDS_WHITE', 'latest.student.demographics.race_ethnicity.white'),
  black: f('UGDS_BLACK', 'latest.student.demographics.race_ethnicity.black'),
  hispanic: f('UGDS_HISP', 'latest.student.demographics.race_ethnicity.hispanic'),
  asian: f('UGDS_ASIAN', 'latest.student.demographics.race_ethnicity.asian'),
  aian: f('UGDS_AIAN', 'latest.student.demographics.race_ethnicity.aian'),
  nhpi: f('UGDS_NHPI', 'latest.student.demographics.race_ethnicity.nhpi'),
  twoOrMore: f('UGDS_2MOR', 'latest.student.demographics.race_ethnicity.two_or_more'),
  nonResident: f('UGDS_NRA', 'latest.student.demographics.race_ethnicity.non_resident_alien'),
  unknownRace: f('UGDS_UNKN', 'latest.student.demographics.race_ethnicity.unknown'),
  firstGeneration: f('FIRST_GEN', 'latest.student.demographics.first_generation'),
  firstGenerationShare: f('PAR_ED_PCT_1STGEN', 'latest.student.share_firstgeneration'),
  avgFamilyIncome: f('FAMINC', 'latest.student.demographics.avg_family_income'),
  medianFamilyIncome: f('MD_FAMINC', 'latest.student.demographics.median_family_income'),
  fafsaApplications: f('APPL_SCH_N', 'latest.student.FAFSA_applications'),
  pellGrantRate: f('PCTPELL', 'latest.aid.pell_grant_rate'),
  federalLoanRate: f('PCTFLOAN', 'latest.aid.federal_loan_rate'),
  costAcademicYear: f('COSTT4_A', 'latest.cost.attendance.academic_year'),
  costProgramYear: f('COSTT4_P', 'latest.cost.attendance.program_year'),
  tuitionInState: f('TUITIONFEE_IN', 'latest.cost.tuition.in_state'),
  tuitionOutOfState: f('TUITIONFEE_OUT', 'latest.cost.tuition.out_of_state'),
  medianEarnings10y: f('MD_EARN_WNE_P10', 'latest.earnings.10_yrs_after_entry.median'),
  avgNetPricePub: f('NPT4_PUB', 'latest.cost.avg_net_price.public'),
  avgNetPricePriv: f('NPT4_PRIV', 'latest.cost.avg_net_price.private'),
  medianDebt: f('GRAD_DEBT_MDN', 'latest.aid.median_debt.completers.overall'),
  netPricePub1: f('NPT41_PUB', 'latest.cost.net_price.public.by_income_level.0-30000'),
  netPricePub2: f('NPT42_PUB', 'latest.cost.net_price.public.by_income_level.30001-48000'),
  netPricePub3: f('NPT43_PUB', 'latest.cost.net_price.public.by_income_level.48001-75000'),
  netPricePub4: f('NPT44_PUB', 'latest.cost.net_price.public.by_income_level.75001-110000'),
  netPricePub5: f('NPT45_PUB', 'latest.cost.net_price.public.by_income_level.110001-plus'),
  netPricePriv1: f('NPT41_PRIV', 'latest.cost.net_price.private.by_income_level.0-30000'),
  netPricePriv2: f('NPT42_PRIV', 'latest.cost.net_price.private.by_income_level.30001-48000'),
  netPricePriv3: f('NPT43_PRIV', 'latest.cost.net_price.private.by_income_level.48001-75000'),
  netPricePriv4: f('NPT44_PRIV', 'latest.cost.net_price.private.by_income_level.75001-110000'),
  netPricePriv5: f('NPT45_PRIV', 'latest.cost.net_price.private.by_income_level.110001-plus'),
  completion4yr: f('C150_4', 'latest.completion.completion_rate_4yr_150nt'),
  completionLessThan4yr: f('C150_L4', 'latest.completion.completion_rate_less_than_4yr_150nt'),
  completion4yrPell: f('C150_4_PELL', 'latest.completion.completion_rate_four_year_150_pell'),
  completion4yrNoLoanNoPell: f(
    'C150_4_NOLOANNOPELL',
    'latest.completion.completion_rate_four_year_150_noloan_nopell',
  ),
  completion4yrPooled: f('C150_4_POOLED', 'latest.completion.completion_rate_4yr_150nt_pooled'),
  firstGenCompletion4yr: f(
    'FIRSTGEN_COMP_ORIG_YR4_RT',
    'latest.completion.title_iv.first_gen.completed_by.4yrs',
  ),
  completionLessThan4yrPell: f('C150_L4_PELL', 'latest.completion.completion_rate_lt_four_year_150_pell'),
  completionLessThan4yrNoLoanNoPell: f(
    'C150_L4_NOLOANNOPELL',
    'latest.completion.completion_rate_lt_four_year_150_noloan_nopell',
  ),
  retention4yr: f('RET_FT4', 'latest.student.retention_rate.four_year.full_time'),
  satReading25: f('SATVR25', 'latest.admissions.sat_scores.25th_percentile.critical_reading'),
  satReading75: f('SATVR75', 'latest.admissions.sat_scores.75th_percentile.critical_reading'),
  satMath25: f('SATMT25', 'latest.admissions.sat_scores.25th_percentile.math'),
  satMath75: f('SATMT75', 'latest.admissions.sat_scores.75th_percentile.math'),
  act25: f('ACTCM25', 'latest.admissions.act_scores.25th_percentile.cumulative'),
  act75: f('ACTCM75', 'latest.admissions.act_scores.75th_percentile.cumulative'),
  testRequirements: f('ADMCON7', 'latest.admissions.test_requirements'),
  /** 1: open admissions (every applicant is admitted), 2: not */
  openAdmissions: f('OPENADMP', 'school.open_admissions_policy'),
} as const satisfies Record<string, ScorecardField>;

export type ScorecardKey = keyof typeof SCORECARD_FIELDS;
/** One institution's raw Scorecard values, by our key; missing values are null/undefined. */
export type ScorecardRecord = Partial<Record<ScorecardKey, unknown>>;

/** The API's `fields` parameter for everything above. */
export const SCORECARD_API_FIELDS = Object.values(SCORECARD_FIELDS)
  .map((x) => x.api)
  .join(',');

/** A record from one API result (flat dotted keys). */
export function recordFromApi(result: Record<string, unknown>): ScorecardRecord {
  const rec: ScorecardRecord = {};
  for (const [k, field] of Object.entries(SCORECARD_FIELDS)) rec[k as ScorecardKey] = result[field.api];
  return rec;
}

/** A record from one row of the official institution CSV (columns by variable name). */
export function recordFromCsv(row: Record<string, string | undefined>): ScorecardRecord {
  const rec: ScorecardRecord = {};
  for (const [k, field] of Object.entries(SCORECARD_FIELDS)) rec[k as ScorecardKey] = row[field.variable];
  return rec;
}

/** The government data of one institution, mapped field by field to the College document's parts. */
export interface GovernmentData {
  scorecardId: number;
  /** Official name (INSTNM) */
  name: string;
  aliases: string[];
  website: string | null;
  mainCampus: boolean;
  demographics: Demographics;
}

/** A number from an API value or CSV cell; empty, "NULL" and "PrivacySuppressed" cells are null. */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!s || !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

function str(v: unknown): string | null {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s && s !== 'NULL' ? s : null;
}

/**
 * A URL as published, with a scheme added when the Scorecard leaves it out: https://, except for an
 * address with a port of its own ("grizzlyden.missouristate.edu:9010/npcalc.htm"), which keeps its port
 * and gets http:// (a server on its own port speaks plain HTTP; TLS there would fail the link).
 */
export function url(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  const bare = s.replace(/^\/+/, '');
  const ownPort = /^[^/?#]+:(\d+)(?:[/?#]|$)/.exec(bare);
  const scheme = ownPort && ownPort[1] !== '443' ? 'http' : 'https';
  const withScheme = /^https?:\/\//i.test(s) ? s : `${scheme}://${bare}`;
  try {
    return new URL(withScheme).toString();
  } catch {
    return null;
  }
}

/**
 * Splits the Scorecard's free-text ALIAS field: lists use `|`, `;`, runs of spaces or, when nothing else
 * separates them, commas (a comma inside one of several `|`-separated names is part of that name).
 */
export function splitAliases(v: unknown): string[] {
  const s = str(v);
  if (!s) return [];
  let parts = s.split(/\s*[|;]+\s*|\s{2,}/);
  if (parts.length === 1) parts = s.split(/\s*,\s*/);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of parts) {
    const a = p.trim().slice(0, 200);
    const k = a.toLowerCase();
    if (a.length < 2 || seen.has(k)) continue;
    seen.add(k);
    out.push(a);
  }
  return out.slice(0, 40);
}

const OWNERSHIP: Record<number, string> = { 1: 'Public', 2: 'Private nonprofit', 3: 'Private for-profit' };

/**
 * Maps one institution's Scorecard values to the College document's demographics and finance.
 * Net prices (average and by income band) come from the public series for public institutions and the
 * private series otherwise, as the Scorecard itself shows them; `dataYears`, when given, says which year
 * each group of figures is from;
 * cost of attendance from the academic-year figure, else the program-year one; graduation rate from the
 * four-year completion rate, else the less-than-four-year one. Nothing is estimated: a value the
 * Scorecard does not publish stays null.
 */
export function governmentData(
  rec: ScorecardRecord,
  opts: { dataYears?: DataYears | undefined } = {},
): GovernmentData | null {
  const id = num(rec.id);
  const name = str(rec.name);
  if (id === null || !name) return null;
  const control = num(rec.ownership);
  const pub = control === 1;
  const priv = control === 2 || control === 3;
  const band = (p: unknown, q: unknown) => (pub ? num(p) : priv ? num(q) : null);
  const graduationRate = num(rec.completion4yr) ?? num(rec.completionLessThan4yr);
  const campusRate = num(rec.admissionRate);
  const allCampusesRate = campusRate === null ? num(rec.admissionRateAllCampuses) : null;
  return {
    scorecardId: id,
    name,
    aliases: splitAliases(rec.alias),
    website: url(rec.schoolUrl),
    mainCampus: num(rec.mainCampus) === 1,
    demographics: {
      schoolCity: str(rec.city),
      schoolState: str(rec.state),
      schoolSize: num(rec.size),
      schoolGradSize: num(rec.gradStudents),
      admissionRate: campusRate ?? allCampusesRate,
      ...(allCampusesRate !== null ? { admissionRateScope: 'all-campuses' as const } : {}),
      studentFacRatio: num(rec.studentFacultyRatio),
      priceCalcUrl: url(rec.priceCalculatorUrl),
      graduationRate,
      ownership: control !== null ? (OWNERSHIP[control] ?? null) : null,
      mainCampus: num(rec.mainCampus) === 1 ? true : num(rec.mainCampus) === 0 ? false : null,
      predominantDegree: num(rec.predominantDegree),
      demographics: {
        white: num(rec.white),
        black: num(rec.black),
        asian: num(rec.asian),
        hispanic: num(rec.hispanic),
        unknown: num(rec.unknownRace),
        firstGen: num(rec.firstGeneration) ?? num(rec.firstGenerationShare),
        aian: num(rec.aian),
        nhpi: num(rec.nhpi),
        twoOrMore: num(rec.twoOrMore),
        nonResident: num(rec.nonResident),
      },
      finance: {
        avgFamilyIncome: num(rec.avgFamilyIncome),
        medianFamilyIncome: num(rec.medianFamilyIncome),
        fafsaApplications: num(rec.fafsaApplications),
        // D_PCTPELL_PCTFLOAN is the head count the Pell and loan shares are taken of (data dictionary), not
        // a count of students with grants or loans: the Scorecard publishes no such figure. The shares are
        // pellGrantRate and federalLoanRate.
        studentsGrantsOrLoans: null,
        costAttendance: num(rec.costAcademicYear) ?? num(rec.costProgramYear),
        inStateTuition: num(rec.tuitionInState),
        outOfStateTuition: num(rec.tuitionOutOfState),
        medianEarnings: num(rec.medianEarnings10y),
        netPrice0to30000: band(rec.netPricePub1, rec.netPricePriv1),
        netPrice30001to48000: band(rec.netPricePub2, rec.netPricePriv2),
        netPrice48001to75000: band(rec.netPricePub3, rec.netPricePriv3),
        netPrice75001to110000: band(rec.netPricePub4, rec.netPricePriv4),
        netPrice110001plus: band(rec.netPricePub5, rec.netPricePriv5),
        graduationRate,
        pellGrantRate: num(rec.pellGrantRate),
        federalLoanRate: num(rec.federalLoanRate),
        avgNetPrice: band(rec.avgNetPricePub, rec.avgNetPricePriv),
        medianDebt: num(rec.medianDebt),
      },
      admissionTests: {
        satReading25: num(rec.satReading25),
        satReading75: num(rec.satReading75),
        satMath25: num(rec.satMath25),
        satMath75: num(rec.satMath75),
        act25: num(rec.act25),
        act75: num(rec.act75),
        testRequirement: num(rec.testRequirements),
      },
      retentionRate: num(rec.retention4yr),
      openAdmissions: num(rec.openAdmissions) === 1 ? true : num(rec.openAdmissions) === 2 ? false : null,
      outcomes: {
        pellGraduationRate: num(rec.completion4yrPell),
        noPellNoLoanGraduationRate: num(rec.completion4yrNoLoanNoPell),
        pooledGraduationRate: num(rec.completion4yrPooled),
        firstGenCompletionRate: num(rec.firstGenCompletion4yr),
        lessThan4yrPellGraduationRate: num(rec.completionLessThan4yrPell),
        lessThan4yrNoPellNoLoanGraduationRate: num(rec.completionLessThan4yrNoLoanNoPell),
        allGraduationRate: num(rec.completion4yr),
        lessThan4yrGraduationRate: num(rec.completionLessThan4yr),
      },
      // The API and the CSV rows carry no year; whoever knows the file's years passes them in.
      ...(opts.dataYears && Object.keys(opts.dataYears).length ? { dataYears: { ...opts.dataYears } } : {}),
    },
  };
}

/** The public College Scorecard page of an institution: the source shown next to government data. */
export function scorecardPageUrl(scorecardId: number): string {
  return `https://collegescorecard.ed.gov/school/?${scorecardId}`;
}
