import { describe, expect, it } from 'vitest';
import {
  addDays,
  aidDates,
  askByDate,
  collegeNameForms,
  countdownText,
  countWords,
  entryYear,
  essayPromptKey,
  incomeBandText,
  moneyDataYears,
  otherCollegesNamed,
  parseWordLimit,
  sourceYear,
  tuitionResidency,
} from './planning.ts';

describe('countdowns', () => {
  it.each([
    ['2026-11-24', 'today'],
    ['2026-11-25', 'tomorrow'],
    ['2026-12-06', 'in 12 days'],
    ['2026-11-23', 'yesterday'],
    ['2026-11-21', '3 days ago'],
    ['2027-03-01', 'in 97 days'],
  ])('%s from 2026-11-24 reads "%s"', (date, text) => {
    expect(countdownText(date, '2026-11-24')).toBe(text);
  });

  it('counts calendar days across months and a leap day', () => {
    expect(addDays('2028-02-27', 3)).toBe('2028-03-01');
    expect(addDays('2027-01-15', -28)).toBe('2026-12-18');
  });
});

describe('financial aid dates of the coming cycle', () => {
  it('before July: this fall; from July: next fall', () => {
    expect(entryYear('2026-03-15')).toBe(2026);
    expect(entryYear('2026-07-01')).toBe(2027);
  });

  it('FAFSA and CSS Profile open October 1 before entry; the federal deadline is June 30 after the award year starts', () => {
    expect(aidDates('2026-11-24').map((a) => [a.form, a.title, a.date])).toEqual([
      ['FAFSA', 'FAFSA opens (2027–28)', '2026-10-01'],
      ['CSS Profile', 'CSS Profile opens (2027–28)', '2026-10-01'],
      ['FAFSA', 'FAFSA federal deadline (2027–28)', '2028-06-30'],
    ]);
    expect(aidDates('2027-02-01')[2]!.date).toBe('2028-06-30');
    expect(aidDates('2099-08-01')[0]!.title).toBe('FAFSA opens (2100–01)');
  });
});

describe('ask-by dates', () => {
  const deadlines = [
    { type: 'Early Decision', date: '2026-11-01' },
    { type: 'CSS Profile priority', date: '2026-11-15' },
    { type: 'Regular Decision', date: '2027-01-15' },
    { type: 'Rolling', date: null },
  ];
  it('is four weeks before the earliest application deadline still to come', () => {
    expect(askByDate(deadlines, '2026-10-01')).toEqual({
      date: '2026-10-04',
      deadlineType: 'Early Decision',
      deadlineDate: '2026-11-01',
    });
    expect(askByDate(deadlines, '2026-11-02')).toEqual({
      date: '2026-12-18',
      deadlineType: 'Regular Decision',
      deadlineDate: '2027-01-15',
    });
    expect(askByDate(deadlines, '2027-02-01')).toBeNull();
    expect(askByDate([{ type: 'Regular Decision', date: 'soon' }], '2026-10-01')).toBeNull();
  });
});

describe('money profile', () => {
  it('says income bands in dollars', () => {
    expect(incomeBandText('48001-75000')).toBe('$48,001–$75,000');
    expect(incomeBandText('110001+')).toBe('$110,001 or more');
  });
  it('applies in-state tuition in the home state only, and knows when it cannot tell', () => {
    expect(tuitionResidency('ME', 'ME')).toBe('in-state');
    expect(tuitionResidency('ME', ' me ')).toBe('in-state');
    expect(tuitionResidency('ME', 'TX')).toBe('out-of-state');
    expect(tuitionResidency(null, 'TX')).toBe('unknown');
    expect(tuitionResidency('ME', null)).toBe('unknown');
  });
});

describe('essay prompts and drafts', () => {
  it('reads word limits from prompt text', () => {
    expect(parseWordLimit('Why us? (650 words)')).toBe(650);
    expect(parseWordLimit('Answer in 250 words or fewer.')).toBe(250);
    expect(parseWordLimit('Respond in 100 to 250 words.')).toBe(250);
    expect(parseWordLimit('Maximum of 1,000 words.')).toBe(1000);
    expect(parseWordLimit('Describe, in two words, yourself.')).toBeNull();
    expect(parseWordLimit('Tell us about your 4 favourite books.')).toBeNull();
  });

  it('gives prompts that read the same one key, and different prompts different keys', () => {
    expect(essayPromptKey('Why Colby? (250 words)')).toBe('why colby');
    expect(essayPromptKey('  why  Colby?  Answer in 250 words or fewer. ')).toBe('why colby');
    expect(essayPromptKey('“Why Colby?”')).toBe('why colby');
    expect(essayPromptKey('Why Bates?')).not.toBe(essayPromptKey('Why Colby?'));
    expect(essayPromptKey('In 650 words, describe a challenge.')).toBe('describe a challenge');
    expect(essayPromptKey('Why Colby? In 650 words, describe a challenge.')).toBe(
      'why colby describe a challenge',
    );
  });

  it('counts words as essay tools do', () => {
    expect(countWords('')).toBe(0);
    expect(countWords("It's a well-known fact — 42 dogs.")).toBe(6);
    expect(countWords('one\ntwo\t three  ')).toBe(3);
  });

  it('warns when a draft names another of the student’s colleges', () => {
    const mine = ['Colby College', 'Bates College', 'University of Maine', 'Boston University'];
    expect(collegeNameForms('Colby College')).toEqual(['colby college', 'colby']);
    expect(collegeNameForms('University of Maine')).toEqual(['university of maine']);
    expect(otherCollegesNamed('At Bates I would row.', ['Colby College'], mine)).toEqual(['Bates College']);
    expect(otherCollegesNamed('Colby’s lake, and Colby College.', ['Colby College'], mine)).toEqual([]);
    // A state's name alone is not a college's name; a draft for two colleges may name both.
    expect(otherCollegesNamed('I grew up in Maine.', ['Colby College'], mine)).toEqual([]);
    expect(otherCollegesNamed('Colby and Bates both.', ['Colby College', 'Bates College'], mine)).toEqual([]);
  });
});

describe('data years of the money figures', () => {
  const title = (year: string) => `College Scorecard, U.S. Department of Education, ${year}`;
  it('reads a source year from dataYear or the title, never a release date', () => {
    expect(sourceYear({ dataYear: '2022-23', title: title('2019-20') })).toBe('2022-23');
    expect(sourceYear({ title: title('2021-22') })).toBe('2021-22');
    expect(sourceYear({ title: 'College Scorecard school table of the 2025-01-16 release' })).toBeNull();
    expect(sourceYear(undefined)).toBeNull();
  });

  it("takes the document's own years first, then each figure's source, then the finance part's", () => {
    const sources = {
      'demographics.finance': { title: title('2021-22') },
      'demographics.finance.medianEarnings': { title: title('2020-21') },
    };
    expect(moneyDataYears(undefined, sources)).toEqual({
      netPrice: '2021-22',
      cost: '2021-22',
      debt: '2021-22',
      earnings: '2020-21',
    });
    expect(moneyDataYears({ cost: '2023-24' }, sources).cost).toBe('2023-24');
    expect(moneyDataYears(undefined, {})).toEqual({});
  });
});
