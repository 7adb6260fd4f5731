import fs from 'node:fs';
import { ESSAY_PROMPTS_JSON } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { categorisePrompt } from './categories.ts';
import { readPlatformPrompts } from './seed.ts';

describe('prompt kinds', () => {
  // The fixture asks what the published prompts ask, in words written for the tests.
  it('sorts the Common App and UC prompts into the kinds a student would', () => {
    expect(fs.existsSync(ESSAY_PROMPTS_JSON)).toBe(true);
    const [ca, uc] = readPlatformPrompts(ESSAY_PROMPTS_JSON);
    expect(ca!.prompts.map((p) => categorisePrompt(p.text))).toEqual([
      'identity', // background
      'challenge', // an obstacle
      'intellectual', // questioned a belief or idea
      'growth', // grateful
      'growth', // personal growth
      'intellectual', // lose all track of time
      'open', // any topic
      'challenge', // challenges and circumstances
    ]);
    expect(uc!.prompts.map((p) => categorisePrompt(p.text))).toEqual([
      'activity', // leadership
      'creativity', // creative side
      'activity', // talent or skill
      'intellectual', // educational opportunity (before the barrier it names)
      'challenge',
      'intellectual', // academic subject
      'community',
      'identity', // strong candidate
    ]);
  });

  it('recognises common supplemental prompts', () => {
    expect(categorisePrompt('Why do you want to attend Example State University?')).toBe('why-us');
    expect(categorisePrompt('Why Tufts?')).toBe('why-us');
    expect(categorisePrompt('Tell us about your intended major.')).toBe('major');
    expect(categorisePrompt('Briefly elaborate on one of your extracurricular activities.')).toBe('activity');
    expect(categorisePrompt('Describe the world you come from, your family, school or community.')).toBe(
      'community',
    );
    expect(categorisePrompt('List five books you have read.')).toBe('other');
  });

  it('reads word limits and notes from a file shaped like the published one', () => {
    const [ca, uc] = readPlatformPrompts(ESSAY_PROMPTS_JSON);
    expect(ca!.prompts[0]).toMatchObject({ wordLimit: 650, wordMin: 250 });
    expect(ca!.prompts[7]!.text).not.toMatch(/\[If yes:\]|\(250 words\)/);
    expect(ca!.prompts[7]!.wordLimit).toBe(250);
    expect(uc!.prompts.every((p) => p.wordLimit === 350 && p.note === 'Answer 4 of the 8 questions.')).toBe(
      true,
    );
  });
});
