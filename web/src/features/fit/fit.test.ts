import { officialDataYears } from '@ct/contracts/planning';
import { buildCollege, scorecardSource } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { fitOf } from './fit';

const HARVARD = 166027;

describe('the fit reason names the year of the figure it rests on (issue 44)', () => {
  it("says a snapshot figure's year, as the college view does", () => {
    const harvard = buildCollege({
      name: 'Harvard University',
      scorecardId: HARVARD,
      demographics: { admissionRate: 0.0401 },
      sources: { demographics: scorecardSource(HARVARD, '2021-22') },
    });
    const reason = fitOf(harvard, null).reason;
    expect(reason).toBe(
      'It admits 4.0% of applicants (College Scorecard, 2021-22); under 15% is a reach for everyone.',
    );
  });

  it("takes the year the college view shows when only the figure's own source states it", () => {
    const { title, ...undated } = scorecardSource(HARVARD);
    const harvard = buildCollege({
      name: 'Harvard University',
      scorecardId: HARVARD,
      demographics: { admissionRate: 0.0401 },
      sources: {
        demographics: { ...undated, title, dataYear: undefined },
        'demographics.admissionRate': scorecardSource(HARVARD, '2021-22'),
      },
    });
    const shown = officialDataYears(harvard.demographics.dataYears, harvard.sources).admissions;
    expect(shown).toBe('2021-22');
    expect(fitOf(harvard, null).reason).toContain('(College Scorecard, 2021-22)');
    expect(fitOf(harvard, null).reason).not.toContain('year not stated');
  });
});
