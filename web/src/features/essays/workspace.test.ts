import type { EssayDraft, PromptDetail } from '@ct/contracts';
import { describe, expect, it } from 'vitest';
import { draftSlots, orphanDrafts, wordCountText } from './workspace';

const p = (prompt: string, wordLimit: number | null = null): PromptDetail => ({
  prompt,
  wordLimit,
  wordMin: null,
  category: 'other',
  sourceUrl: null,
  note: null,
});

describe('draft slots', () => {
  const colleges = [
    {
      collegeName: 'Colby College',
      prompts: [p('Why Colby?', 250), p('Describe a community you belong to.', 300)],
    },
    {
      collegeName: 'Bates College',
      prompts: [p('Why Bates?'), p('Describe a community you belong to (200 words).')],
    },
    { collegeName: 'Hill College', prompts: [] },
  ];

  it('gives each prompt one draft, and one shared draft to prompts that read the same', () => {
    const slots = draftSlots(colleges);
    expect(slots.map((s) => [s.prompt, s.colleges, s.wordLimit])).toEqual([
      ['Why Colby?', ['Colby College'], 250],
      // The strictest limit applies: the one draft must fit both.
      ['Describe a community you belong to.', ['Colby College', 'Bates College'], 200],
      ['Why Bates?', ['Bates College'], null],
    ]);
  });

  it('keeps drafts whose prompt no college asks any more', () => {
    const slots = draftSlots(colleges);
    const draft = (promptKey: string) => ({ promptKey }) as EssayDraft;
    expect(orphanDrafts([draft('why colby'), draft('why gone')], slots).map((d) => d.promptKey)).toEqual([
      'why gone',
    ]);
  });

  it('counts against the limit', () => {
    expect(wordCountText(1, null)).toBe('1 word');
    expect(wordCountText(312, 650)).toBe('312 / 650 words');
    expect(wordCountText(700, 650)).toBe('700 / 650 words (50 over the limit)');
  });
});
