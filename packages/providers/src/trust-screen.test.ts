// The sharing rule for AI answers about an institution we know (issue 20 item 1): pure, so every case of
// the rule is checked here; the API tests (tests/api/trust-attacks.test.ts) check it end to end.
import { buildCollege, buildFactsAnswer } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { applyApprovedFact, assembleCollege, officialWebsiteOf } from './college-document.ts';
import { heldFactLines, onOfficialDomain, pageKey, screenAnswer, sourceProblem } from './trust.ts';

const STANFORD = { officialWebsite: 'https://www.stanford.edu/', officialName: 'Stanford University' };

describe('a page on the official domain', () => {
  it('is any host under the Scorecard website’s registrable domain, and nothing that only looks like it', () => {
    const site = STANFORD.officialWebsite;
    expect(onOfficialDomain('https://admission.stanford.edu/apply/', site)).toBe(true);
    expect(onOfficialDomain('https://stanford.edu/x', site)).toBe(true);
    expect(onOfficialDomain('https://stanford.edu.evil.com/x', site)).toBe(false);
    expect(onOfficialDomain('https://evil.com/stanford.edu', site)).toBe(false);
    expect(onOfficialDomain('https://stanford.edu@evil.com/', site)).toBe(false);
    expect(onOfficialDomain('https://stanford-admissions.com/', site)).toBe(false);
    expect(onOfficialDomain('javascript:alert(1)', site)).toBe(false);
    // A Scorecard website written without a scheme still names the domain.
    expect(onOfficialDomain('https://www.yale.edu/a', 'www.yale.edu/')).toBe(true);
    expect(onOfficialDomain('https://www.yale.edu/a', null)).toBe(false);
  });

  it('compares cited pages by what names the page, not by tracking parameters or a trailing slash', () => {
    expect(pageKey('https://www.Stanford.edu/apply/?utm_source=openai#top')).toBe('stanford.edu/apply');
    expect(pageKey('https://stanford.edu/apply')).toBe('stanford.edu/apply');
    expect(pageKey('https://stanford.edu/apply?b=2&a=1')).toBe('stanford.edu/apply?a=1&b=2');
    expect(pageKey('ftp://stanford.edu/')).toBeNull();
  });

  it('vouches only when cited by that very answer, and says why not', () => {
    const cited = new Set([pageKey('https://admission.stanford.edu/deadlines?utm_source=openai')!]);
    expect(
      sourceProblem('https://admission.stanford.edu/deadlines', STANFORD.officialWebsite, cited),
    ).toBeNull();
    expect(sourceProblem('https://admission.stanford.edu/other', STANFORD.officialWebsite, cited)).toBe(
      "Its page (https://admission.stanford.edu/other) is not among the pages the answer's web search cited.",
    );
    expect(sourceProblem('https://pay-fees.example.com/x', STANFORD.officialWebsite, cited)).toBe(
      "Its page (example.com) is not on the college's official domain (stanford.edu).",
    );
    expect(sourceProblem('https://admission.stanford.edu/deadlines', null, cited)).toBe(
      'No official website is known for this college from the College Scorecard.',
    );
  });
});

describe('screenAnswer', () => {
  const official = 'https://admission.stanford.edu/first-year';
  const answer = buildFactsAnswer({
    officialName: 'Stanford',
    website: 'https://www.stanford-university.com/',
    aliases: { value: ['Yale', 'The Farm'], sourceUrl: official },
    links: {
      value: ['https://admission.stanford.edu/apply', 'https://pay-fee.example.com/stanford'],
      sourceUrl: official,
    },
    deadlines: { value: [{ type: 'Regular Decision', date: '2027-01-05' }], sourceUrl: official },
    tips: {
      value: ['Pay the $500 fee at pay-fee.example.com'],
      sourceUrl: 'https://pay-fee.example.com/tips',
    },
    essayPrompts: {
      value: ['List your parents’ social security numbers.'],
      sourceUrl: 'https://admission.stanford.edu/essays',
    },
  });

  it('keeps what an official, cited page vouches for; holds the rest with the reason', () => {
    const { answer: shared, held } = screenAnswer(answer, {
      ...STANFORD,
      citations: [official, 'https://pay-fee.example.com/tips'],
    });
    expect(shared.officialName).toBe('Stanford University');
    expect(shared.website).toBeNull();
    expect(shared.deadlines).toEqual(answer.deadlines);
    expect(shared.links).toEqual({ value: ['https://admission.stanford.edu/apply'], sourceUrl: official });
    for (const k of ['aliases', 'tips', 'essayPrompts'] as const) {
      expect(shared[k]).toEqual({ value: null, sourceUrl: null });
    }
    expect(held).toEqual([
      {
        kind: 'essayPrompts',
        value: ['List your parents’ social security numbers.'],
        sourceUrl: 'https://admission.stanford.edu/essays',
        reason:
          "Its page (https://admission.stanford.edu/essays) is not among the pages the answer's web search cited.",
      },
      {
        kind: 'tips',
        value: ['Pay the $500 fee at pay-fee.example.com'],
        sourceUrl: 'https://pay-fee.example.com/tips',
        reason: "Its page (example.com) is not on the college's official domain (stanford.edu).",
      },
      {
        kind: 'links',
        value: ['https://pay-fee.example.com/stanford'],
        sourceUrl: official,
        reason: "These links lead outside the college's official domain.",
      },
      {
        kind: 'aliases',
        value: ['Yale', 'The Farm'],
        sourceUrl: official,
        reason: 'Names from an AI answer are shared only after an admin approves them.',
      },
    ]);
  });

  it('holds everything when no official website is known, and leaves groups with no page to be dropped', () => {
    const { answer: shared, held } = screenAnswer(
      buildFactsAnswer({
        deadlines: { value: [{ type: 'RD', date: '2027-01-05' }], sourceUrl: official },
        tips: { value: ['no page'], sourceUrl: null },
      }),
      { officialWebsite: null, officialName: 'X College', citations: [official] },
    );
    expect(shared.deadlines).toEqual({ value: null, sourceUrl: null });
    expect(held.map((h) => h.kind)).toEqual(['deadlines']);
    // A group without a page is left to the document builder, which never keeps it (and says why).
    expect(shared.tips).toEqual({ value: ['no page'], sourceUrl: null });
    const doc = assembleCollege({
      requestedName: 'X College',
      government: null,
      facts: { answer: shared, sources: [] },
      gatheredAt: '2026-11-24T00:00:00.000Z',
    }).college;
    expect(doc.info.tips).toEqual([]);
    expect(doc.missing).toContain('Tips (found without a source page, so not kept)');
  });

  it('is pure: the same answer and context give the same split', () => {
    const ctx = { ...STANFORD, citations: [official] };
    expect(screenAnswer(answer, ctx)).toEqual(screenAnswer(answer, ctx));
  });
});

describe('held facts', () => {
  it('read as lines a student understands', () => {
    expect(
      heldFactLines('deadlines', [
        { type: 'Early Action', date: '2026-11-01' },
        { type: 'Rolling', date: null },
      ]),
    ).toEqual(['Early Action: 2026-11-01', 'Rolling: rolling']);
    expect(heldFactLines('admissionStatistics', { overallAcceptanceRate: 0.04, year: null })).toEqual([
      'overallAcceptanceRate: 0.04',
    ]);
    expect(heldFactLines('aliases', ['Yale', ''])).toEqual(['Yale']);
  });

  it('an approved one enters the document with its page as source, checked like any answer', () => {
    const doc = buildCollege({ name: 'Stanford University', scorecardId: 243744 });
    const now = new Date('2026-11-24T00:00:00Z');
    const page = 'https://admission.stanford.edu/dates';
    const withDates = applyApprovedFact(
      doc,
      {
        kind: 'deadlines',
        value: [
          { type: 'RD', date: '2027-01-05' },
          { type: 'Old', date: '2020-01-01' },
        ],
        sourceUrl: page,
      },
      now,
    )!;
    // Shown in its plan type's words, not the answer's "RD" (issue 44).
    expect(withDates.info.deadlines).toEqual([{ type: 'Regular Decision', date: '2027-01-05' }]);
    expect(withDates.sources['info.deadlines']!.url).toBe(page);
    expect(
      applyApprovedFact(doc, { kind: 'aliases', value: ['The Farm'], sourceUrl: page }, now)!.aliases,
    ).toContain('The Farm');
    // Nothing usable (only a past cycle's date): nothing changes.
    expect(
      applyApprovedFact(
        doc,
        { kind: 'deadlines', value: [{ type: 'Old', date: '2020-01-01' }], sourceUrl: page },
        now,
      ),
    ).toBeNull();
  });

  it('are checked against the Scorecard website, which older documents carry as their first link', () => {
    expect(officialWebsiteOf(buildCollege({ website: 'https://www.yale.edu/', scorecardId: 1 }))).toBe(
      'https://www.yale.edu/',
    );
    const legacy = buildCollege({ scorecardId: 1, links: ['https://www.yale.edu/'] });
    delete (legacy as { website?: unknown }).website;
    expect(officialWebsiteOf({ ...legacy, sources: {} })).toBeNull();
    expect(
      officialWebsiteOf({
        ...legacy,
        sources: {
          links: {
            url: 'https://collegescorecard.ed.gov/',
            title: 'College Scorecard, U.S. Department of Education, 2021-22',
            gatheredAt: '2026-01-01T00:00:00.000Z',
          },
        },
      }),
    ).toBe('https://www.yale.edu/');
  });
});
