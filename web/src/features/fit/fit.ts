import type { AcademicProfile, College } from '@ct/contracts';
import { normaliseCollegeName } from '@ct/contracts/constants';
import { fitBand, type CostInput, type Fit, type FitFacts } from '@ct/contracts/fit';
import { officialDataYears, sourceYear } from '@ct/contracts/planning';

/** The figures of a College document the fit rule reads, with their years and sources. */
export function fitFacts(college: College): FitFacts {
  const d = college.demographics;
  const t = d.admissionTests;
  const req = college.info.requirements;
  const s = college.sources;
  return {
    admissionRate: d.admissionRate,
    satReading25: t?.satReading25 ?? null,
    satReading75: t?.satReading75 ?? null,
    satMath25: t?.satMath25 ?? null,
    satMath75: t?.satMath75 ?? null,
    act25: t?.act25 ?? null,
    act75: t?.act75 ?? null,
    testRequirement: t?.testRequirement ?? null,
    openAdmissions: d.openAdmissions ?? null,
    // The same years the college card shows (issue 44): the figure's own source counts too.
    dataYear: officialDataYears(d.dataYears, s).admissions ?? null,
    gridTestPolicy: req.testPolicy ?? null,
    gridCycle: sourceYear(s['info.requirements.testPolicy'] ?? s['info.requirements']),
  };
}

/** Whether the student chose to apply test-optional to this college. */
export const appliesTestOptional = (college: College, profile: AcademicProfile | null | undefined) =>
  !!profile?.testOptional.some((n) => normaliseCollegeName(n) === normaliseCollegeName(college.name));

/** The fit band of a college for the signed-in student's profile (null profile: no scores). */
export function fitOf(college: College, profile: AcademicProfile | null | undefined): Fit {
  return fitBand(profile ?? null, fitFacts(college), { testOptional: appliesTestOptional(college, profile) });
}

/** What the cost of applying reads from a College document. */
export function costInput(college: College): CostInput {
  const req = college.info.requirements;
  const src = college.sources['info.requirements.applicationFeeUsd'] ?? college.sources['info.requirements'];
  const fee = typeof req.applicationFeeUsd === 'number' ? req.applicationFeeUsd : null;
  return {
    name: college.name,
    scorecardId: college.scorecardId,
    applicationFee: fee,
    feeSource: fee === null ? null : (src?.title ?? null),
  };
}

export const BAND_TEXT: Record<Fit['band'], string> = {
  reach: 'Reach',
  target: 'Target',
  likely: 'Likely',
  'not enough data': 'Not enough data',
};
