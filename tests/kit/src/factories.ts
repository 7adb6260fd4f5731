import type { College, CollegeFactsAnswer } from '@ct/contracts';
import type { MajorFactsAnswer } from '@ct/colleges/jobs/major';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import type { Queryable } from '@ct/store';

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K];
};

/** A complete college document with plausible values; override any part. */
export function buildCollege(over: DeepPartial<College> & { name?: string } = {}): College {
  const now = new Date().toISOString();
  const name = over.name ?? 'Example State University';
  const base: College = {
    name,
    aliases: [],
    links: ['https://www.example.edu/admissions'],
    createdAt: now,
    scorecardId: null,
    demographics: {
      schoolCity: 'Springfield',
      schoolState: 'IL',
      schoolSize: 12000,
      schoolGradSize: 3000,
      admissionRate: 0.45,
      studentFacRatio: 16,
      priceCalcUrl: 'https://www.example.edu/npc',
      graduationRate: 0.7,
      demographics: { white: 0.5, black: 0.12, asian: 0.15, hispanic: 0.18, unknown: 0.05, firstGen: 0.3 },
      finance: {
        avgFamilyIncome: 80000,
        medianFamilyIncome: 65000,
        fafsaApplications: 9000,
        studentsGrantsOrLoans: 0.6,
        costAttendance: 30000,
        inStateTuition: 11000,
        outOfStateTuition: 28000,
        medianEarnings: 52000,
        netPrice0to30000: 9000,
        netPrice30001to48000: 11000,
        netPrice48001to75000: 15000,
        netPrice75001to110000: 20000,
        netPrice110001plus: 24000,
        graduationRate: 0.7,
      },
    },
    info: {
      deadlines: [
        { type: 'Early Action', date: '2026-11-01' },
        { type: 'Regular Decision', date: '2027-01-15' },
      ],
      essayPrompts: ['Why do you want to attend our university?'],
      requirements: { transcripts: 'Required', SAT_ACT: 'Optional', teacherRecommendations: '2 required' },
      tips: ['Visit campus if you can.'],
      admissionStatistics: { overallAcceptanceRate: 0.45, year: '2024' },
      admittedStudentProfile: { GPA: '3.7', SAT: '1250', Major: 'Business' },
    },
    sources: {},
    missing: [],
  };
  return {
    ...base,
    ...over,
    demographics: {
      ...base.demographics,
      ...over.demographics,
      demographics: { ...base.demographics.demographics, ...over.demographics?.demographics },
      finance: { ...base.demographics.finance, ...over.demographics?.finance },
    },
    info: {
      ...base.info,
      ...over.info,
      requirements: { ...base.info.requirements, ...over.info?.requirements },
      admissionStatistics: { ...base.info.admissionStatistics, ...over.info?.admissionStatistics },
      admittedStudentProfile: { ...base.info.admittedStudentProfile, ...over.info?.admittedStudentProfile },
    },
  } as College;
}

/** Where a college's official figures come from: its College Scorecard page, for a data year. */
export function scorecardSource(unitId: number, dataYear = '2021-22') {
  return {
    url: `https://collegescorecard.ed.gov/school/?${unitId}`,
    title: 'College Scorecard, U.S. Department of Education',
    gatheredAt: '2025-01-16T00:00:00.000Z',
    dataYear,
  };
}

/** Puts colleges straight into the colleges service's cache (as the worker would after ingestion). */
export async function seedColleges(db: Queryable, colleges: College[]): Promise<void> {
  const repo = new CollegeRepository(db);
  for (const c of colleges) await repo.upsertCollege(c);
}

/** What the AI provider answers about one college: found, every fact group empty unless given. */
export function buildFactsAnswer(over: Partial<CollegeFactsAnswer> = {}): CollegeFactsAnswer {
  const none = { value: null, sourceUrl: null };
  return {
    found: true,
    officialName: 'Example State University',
    city: null,
    state: null,
    website: null,
    aliases: none,
    links: none,
    deadlines: none,
    essayPrompts: none,
    requirements: none,
    tips: none,
    admissionStatistics: none,
    admittedStudentProfile: none,
    ...over,
  };
}

/** What the AI provider answers about one major at one college: found, nothing stated unless given. */
export function buildMajorAnswer(over: Partial<MajorFactsAnswer> = {}): MajorFactsAnswer {
  return {
    found: true,
    averageWeightedGpa: { value: null, scope: 'college', sourceUrl: null },
    averageSatScore: { value: null, scope: 'college', sourceUrl: null },
    extracurriculars: { value: [], sourceUrl: null },
    essayTopics: { value: [], sourceUrl: null },
    description: { value: null, sourceUrl: null },
    ...over,
  };
}
