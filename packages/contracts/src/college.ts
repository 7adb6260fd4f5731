import Type, { type Static, type TSchema } from 'typebox';
import { IsoDateTime } from './common.ts';
export { NET_PRICE_BANDS, COMPARE_METRICS, type NetPriceKey } from './constants.ts';

const Num = Type.Union([Type.Number(), Type.Null()]);
const Str = Type.Union([Type.String(), Type.Null()]);

/** Where a gathered fact came from, and when. */
export const Source = Type.Object({
  url: Type.String({ maxLength: 2000 }),
  title: Type.Optional(Type.String({ maxLength: 500 })),
  gatheredAt: IsoDateTime,
  /** The year the figures describe, when the source publishes it (e.g. "2022-23" for College Scorecard data). */
  dataYear: Type.Optional(Type.String({ maxLength: 40 })),
  /**
   * For an official data file: its release date (YYYY-MM-DD), or null when the file does not state it.
   * Then `gatheredAt` is only when this copy was loaded, and the student is shown the release instead.
   */
  released: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
});
export type Source = Static<typeof Source>;

export const Finance = Type.Object({
  avgFamilyIncome: Num,
  medianFamilyIncome: Num,
  fafsaApplications: Num,
  studentsGrantsOrLoans: Num,
  costAttendance: Num,
  inStateTuition: Num,
  outOfStateTuition: Num,
  medianEarnings: Num,
  netPrice0to30000: Num,
  netPrice30001to48000: Num,
  netPrice48001to75000: Num,
  netPrice75001to110000: Num,
  netPrice110001plus: Num,
  graduationRate: Num,
  /** Share of undergraduates with a Pell grant (Scorecard PCTPELL), fraction 0..1 */
  pellGrantRate: Type.Optional(Num),
  /** Share of undergraduates with a federal student loan (Scorecard PCTFLOAN), fraction 0..1 */
  federalLoanRate: Type.Optional(Num),
  /**
   * Average net price over all aided students (Scorecard NPT4_PUB for public institutions, NPT4_PRIV
   * otherwise). Optional: older documents lack it.
   */
  avgNetPrice: Type.Optional(Num),
  /** Median debt of students who completed (Scorecard GRAD_DEBT_MDN). Optional: older documents lack it. */
  medianDebt: Type.Optional(Num),
});
export type Finance = Static<typeof Finance>;

/** Shares of undergraduates, fractions 0..1. `unknown` is shown as "Others". */
export const DemographicBreakdown = Type.Object({
  white: Num,
  black: Num,
  asian: Num,
  hispanic: Num,
  unknown: Num,
  firstGen: Num,
  /** The smaller groups the Scorecard publishes, fractions 0..1 (optional: older documents lack them). */
  aian: Type.Optional(Num),
  nhpi: Type.Optional(Num),
  twoOrMore: Type.Optional(Num),
  nonResident: Type.Optional(Num),
});
export type DemographicBreakdown = Static<typeof DemographicBreakdown>;

/**
 * The year of the data behind each group of government figures, as the source names it (e.g. "2021-22").
 * Every key is optional: a group whose year is not known is left out, and older documents have none.
 */
export const DataYears = Type.Object(
  {
    /** Admission rate */
    admissions: Type.Optional(Type.String({ maxLength: 20 })),
    /** Sizes, ratio and the demographic breakdown */
    students: Type.Optional(Type.String({ maxLength: 20 })),
    /** Cost of attendance and tuition */
    cost: Type.Optional(Type.String({ maxLength: 20 })),
    /** Net prices (average and by income band) */
    netPrice: Type.Optional(Type.String({ maxLength: 20 })),
    /** Grants, loans, family incomes and FAFSA applications */
    aid: Type.Optional(Type.String({ maxLength: 20 })),
    /** Median debt */
    debt: Type.Optional(Type.String({ maxLength: 20 })),
    /** Median earnings */
    earnings: Type.Optional(Type.String({ maxLength: 20 })),
    /** Graduation rate */
    completion: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: false },
);
export type DataYears = Static<typeof DataYears>;

/**
 * The middle 50 % of admitted students' test scores, per section (College Scorecard SATVR25/75,
 * SATMT25/75, ACTCM25/75), and the test-score requirement (ADMCON7: 1 required, 2 recommended,
 * 3 neither required nor recommended, 5 considered but not required).
 */
export const AdmissionTests = Type.Object({
  satReading25: Num,
  satReading75: Num,
  satMath25: Num,
  satMath75: Num,
  act25: Num,
  act75: Num,
  testRequirement: Num,
});
export type AdmissionTests = Static<typeof AdmissionTests>;

/**
 * How students like the reader finish (issue 48), each a fraction 0..1 from the College Scorecard, null where
 * the file has none (never estimated). The four-year rates are of first-time, full-time students finishing
 * within 150 % of normal time; the less-than-four-year ones are the same measure at two-year colleges.
 */
export const Outcomes = Type.Object({
  /** Students who had a Pell Grant in their first year (C150_4_PELL) */
  pellGraduationRate: Num,
  /** Students with neither a Pell Grant nor a Direct Subsidized Loan in their first year (C150_4_NOLOANNOPELL) */
  noPellNoLoanGraduationRate: Num,
  /** All students, pooled over two cohorts (C150_4_POOLED; empty in the 2021-22 year file) */
  pooledGraduationRate: Num,
  /** First-generation students who completed within 4 years at the college (FIRSTGEN_COMP_ORIG_YR4_RT) */
  firstGenCompletionRate: Num,
  /** Pell Grant recipients at a less-than-four-year college (C150_L4_PELL) */
  lessThan4yrPellGraduationRate: Num,
  /** Neither Pell nor subsidized loan, at a less-than-four-year college (C150_L4_NOLOANNOPELL) */
  lessThan4yrNoPellNoLoanGraduationRate: Num,
  /** All first-time, full-time students at a four-year college, one cohort (C150_4; optional: added later) */
  allGraduationRate: Type.Optional(Num),
  /** All first-time, full-time students at a less-than-four-year college (C150_L4; optional: added later) */
  lessThan4yrGraduationRate: Type.Optional(Num),
});
export type Outcomes = Static<typeof Outcomes>;

export const Demographics = Type.Object({
  schoolCity: Str,
  schoolState: Str,
  /** Undergraduate size */
  schoolSize: Num,
  schoolGradSize: Num,
  /** Fraction 0..1 */
  admissionRate: Num,
  /**
   * 'all-campuses': the Scorecard has no rate for this campus, and `admissionRate` is ADM_RATE_ALL, the
   * rate of all campuses sharing its 6-digit OPE ID. Absent: the campus's own rate (ADM_RATE), or none.
   */
  admissionRateScope: Type.Optional(Type.Literal('all-campuses')),
  studentFacRatio: Num,
  priceCalcUrl: Str,
  graduationRate: Num,
  /** "Public", "Private nonprofit" or "Private for-profit" (Scorecard CONTROL) */
  ownership: Type.Optional(Str),
  /** Whether this is the institution's main campus (Scorecard MAIN; optional: older documents lack it) */
  mainCampus: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  /**
   * The degree it mainly awards (Scorecard PREDDEG): 0 not classified, 1 certificate, 2 associate's,
   * 3 bachelor's, 4 graduate (optional: older documents lack it)
   */
  predominantDegree: Type.Optional(Num),
  demographics: DemographicBreakdown,
  finance: Finance,
  /** The data year of each group of figures, where the source gives it. */
  dataYears: Type.Optional(DataYears),
  /** Test-score ranges and requirement (optional: older documents lack them) */
  admissionTests: Type.Optional(AdmissionTests),
  /** First-time, full-time retention rate at four-year institutions (Scorecard RET_FT4), fraction 0..1 */
  retentionRate: Type.Optional(Num),
  /**
   * The open admissions policy (Scorecard OPENADMP): true when the college admits every applicant (1),
   * false when it does not (2), null when not reported (optional: older documents lack it).
   */
  openAdmissions: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  /** Completion by Pell Grant, loan and first-generation status (optional: older documents lack it) */
  outcomes: Type.Optional(Outcomes),
});
export type Demographics = Static<typeof Demographics>;

export const Deadline = Type.Object({
  /** e.g. "Early Decision", "Regular Decision" */
  type: Type.String({ minLength: 1, maxLength: 100 }),
  /** YYYY-MM-DD, or null when the college publishes none (rolling) */
  date: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
  /**
   * What a student must know about the date when it is not one published for this cycle: worked out from
   * a yearly rule ("Derived from the grid's yearly date, Dec 1 ..."), or last cycle's date shown because
   * this cycle's is not yet published.
   */
  note: Type.Optional(Type.String({ maxLength: 300 })),
});
export type Deadline = Static<typeof Deadline>;

export const EssayPromptMeta = Type.Object({
  prompt: Type.String(),
  wordLimit: Num,
});

export const Requirements = Type.Object({
  transcripts: Str,
  SAT_ACT: Str,
  teacherRecommendations: Str,
  /** From the Common App requirements grid, when the college is in it (optional: the AI answer lacks them) */
  applicationFee: Type.Optional(Str),
  /** Whether the Common App personal essay is required */
  personalEssay: Type.Optional(Str),
  /** Whether the college asks its own writing questions */
  writingSupplement: Type.Optional(Str),
  /** Counselor recommendation and midyear report */
  counselorRecommendation: Type.Optional(Str),
  /** The grid's test policy code (required, optional, flexible, free), for the fit band */
  testPolicy: Type.Optional(Str),
  /** The grid's application fee for U.S. applicants in dollars, for the cost of applying */
  applicationFeeUsd: Type.Optional(Num),
});

export const AdmissionStatistics = Type.Object({
  /** Fraction 0..1 */
  overallAcceptanceRate: Num,
  year: Str,
});

export const AdmittedStudentProfile = Type.Object({
  GPA: Str,
  SAT: Str,
  Major: Str,
});

export const CollegeInfo = Type.Object({
  deadlines: Type.Array(Deadline),
  essayPrompts: Type.Array(Type.String()),
  essayPromptMeta: Type.Optional(Type.Array(EssayPromptMeta)),
  requirements: Requirements,
  tips: Type.Array(Type.String()),
  admissionStatistics: AdmissionStatistics,
  admittedStudentProfile: AdmittedStudentProfile,
});
export type CollegeInfo = Static<typeof CollegeInfo>;

/**
 * The keys of `College.sources`: each names the part of the document a source vouches for.
 * `demographics` and `demographics.finance` come from the College Scorecard; the `info.*` parts, `aliases`
 * and `links` from the college's own pages (AI web search) or the Common App requirements grid.
 */
export const FACT_SOURCE_KEYS = [
  'name',
  'aliases',
  'links',
  'demographics',
  'demographics.finance',
  'info.deadlines',
  'info.essayPrompts',
  'info.requirements',
  'info.tips',
  'info.admissionStatistics',
  'info.admittedStudentProfile',
] as const;
export type FactSourceKey = (typeof FACT_SOURCE_KEYS)[number];

/**
 * The college document the API returns (spec entity "College").
 * `sources` maps a fact path (one of FACT_SOURCE_KEYS) to where and when it was gathered;
 * `missing` lists what could not be gathered, in words a student can read.
 */
export const College = Type.Object({
  name: Type.String(),
  aliases: Type.Array(Type.String()),
  links: Type.Array(Type.String()),
  createdAt: IsoDateTime,
  updatedAt: Type.Optional(IsoDateTime),
  scorecardId: Type.Union([Type.Integer(), Type.Null()]),
  /**
   * The institution's official website as the College Scorecard publishes it (null or absent without a
   * government record). Its registrable domain is the only domain whose pages may put an AI-gathered fact
   * into the shared record (ADR 0070).
   */
  website: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  demographics: Demographics,
  info: CollegeInfo,
  sources: Type.Record(Type.String(), Source),
  missing: Type.Array(Type.String()),
});
export type College = Static<typeof College>;

/** States of an ingestion request (one per normalised college name). */
export const IngestionState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);
export type IngestionState = Static<typeof IngestionState>;

/** What the student sees while a college is being gathered. */
export const IngestionStage = Type.Union([
  Type.Literal('queued'),
  Type.Literal('government-data'),
  Type.Literal('college-facts'),
  Type.Literal('saving'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);
export type IngestionStage = Static<typeof IngestionStage>;

export const IngestionRequest = Type.Object({
  key: Type.String({ description: 'Normalised college name; also the job id' }),
  name: Type.String(),
  state: IngestionState,
  stage: IngestionStage,
  attempts: Type.Integer(),
  /** Set when the request failed for good: a reason a student can read. */
  failureReason: Type.Union([Type.String(), Type.Null()]),
  /** Why the last try failed while another try is still to come. */
  lastError: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  collegeName: Type.Union([Type.String(), Type.Null()], {
    description: 'Official name of the stored college once done',
  }),
  requestedAt: IsoDateTime,
  updatedAt: IsoDateTime,
  /**
   * Set while a queued request waits for a later hour: the student's share of this hour's AI allowance
   * (or the hour's allowance) is spent, so its work starts at this time.
   */
  waitingUntil: Type.Optional(Type.Union([IsoDateTime, Type.Null()])),
});
export type IngestionRequest = Static<typeof IngestionRequest>;

/** One gathered fact group as the AI provider returns it: the value (null when not found) and its page. */
function Fact<T extends TSchema>(value: T, description: string) {
  return Type.Object(
    {
      value: Type.Union([value, Type.Null()]),
      sourceUrl: Type.Union([Type.String(), Type.Null()], {
        description: 'The URL of the page this value was read from; null when value is null',
      }),
    },
    { description },
  );
}

/**
 * What the AI provider is asked to return about one college (strict JSON-schema output). Every group
 * carries the page it was read from; a group the model cannot find on a page must be null, never guessed.
 */
export const CollegeFactsAnswer = Type.Object({
  found: Type.Boolean({ description: 'true only if this college was found on its official pages' }),
  officialName: Type.Union([Type.String(), Type.Null()], { description: 'Official full name' }),
  city: Str,
  state: Type.Union([Type.String(), Type.Null()], {
    description: 'Two-letter U.S. state code, if in the U.S.',
  }),
  website: Type.Union([Type.String(), Type.Null()], { description: 'Official homepage URL' }),
  aliases: Fact(Type.Array(Type.String()), 'Other names and abbreviations the college is known by'),
  links: Fact(Type.Array(Type.String()), 'Helpful official URLs: admissions, financial aid, visits'),
  deadlines: Fact(
    Type.Array(
      Type.Object({
        type: Type.String({ description: 'e.g. Early Decision, Early Action, Regular Decision' }),
        date: Type.Union([Type.String(), Type.Null()], {
          description: 'YYYY-MM-DD for the coming admission cycle; null when rolling',
        }),
      }),
    ),
    'First-year application deadlines for the coming cycle',
  ),
  essayPrompts: Fact(Type.Array(Type.String()), 'Supplemental essay prompts, verbatim'),
  requirements: Fact(
    Type.Object({
      transcripts: Str,
      SAT_ACT: Type.Union([Type.String(), Type.Null()], { description: 'Required, optional or test-free' }),
      teacherRecommendations: Str,
      applicationFee: Type.Optional(
        Type.Union([Type.String(), Type.Null()], {
          description: 'First-year application fee for U.S. applicants, e.g. "$85" or "No fee"',
        }),
      ),
    }),
    'What a first-year application needs',
  ),
  tips: Fact(Type.Array(Type.String()), "Advice from the college's own admissions pages"),
  admissionStatistics: Fact(
    Type.Object({
      overallAcceptanceRate: Type.Union([Type.Number(), Type.Null()], { description: 'Fraction 0..1' }),
      year: Type.Union([Type.String(), Type.Null()], { description: 'Admission cycle or class year' }),
    }),
    'Published acceptance rate',
  ),
  admittedStudentProfile: Fact(
    Type.Object({
      GPA: Str,
      SAT: Type.Union([Type.String(), Type.Null()], { description: 'Middle 50% range or average' }),
      Major: Type.Union([Type.String(), Type.Null()], { description: 'Most popular majors' }),
    }),
    'Profile of admitted first-year students',
  ),
});
export type CollegeFactsAnswer = Static<typeof CollegeFactsAnswer>;
