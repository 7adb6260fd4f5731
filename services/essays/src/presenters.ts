// Rows become API shapes here, and only here: repositories return what Postgres stores, routes answer
// with what packages/contracts/src/essays.ts describes.
import {
  parseWordLimit,
  PROMPT_CATEGORIES,
  type ExampleEssay,
  type PromptDetail,
  type PromptGroup,
} from '@ct/contracts';
import { CATEGORY_TEXT } from './categories.ts';
import { ESSAYS_MSG } from './messages.ts';
import type { CollegePromptRow, ExampleRow, PromptRow } from './repositories/essays.ts';

/** A prompt with its word limit: the published one, else the one its own text states ("650 words"). */
export const presentPrompt = (r: PromptRow): PromptDetail => ({
  prompt: r.text,
  wordLimit: r.word_limit ?? parseWordLimit(r.text),
  wordMin: r.word_min,
  category: r.category,
  sourceUrl: r.source_url,
  note: r.note,
});

export const presentExample = (r: ExampleRow): ExampleEssay => ({
  id: String(r.id),
  text: r.body,
  title: r.title,
  origin: r.origin,
  label: ESSAYS_MSG.exampleLabel[r.origin],
  createdAt: r.created_at.toISOString(),
});

/**
 * The student's prompts grouped by what they ask: groups that one draft can serve (several prompts)
 * first, "other" always last.
 */
export function presentPromptGroups(rows: CollegePromptRow[]): PromptGroup[] {
  const groups: PromptGroup[] = PROMPT_CATEGORIES.map((category) => ({
    category,
    ...CATEGORY_TEXT[category],
    prompts: rows
      .filter((r) => r.category === category)
      .map((r) => ({
        collegeName: r.name,
        prompt: r.text,
        wordLimit: r.word_limit ?? parseWordLimit(r.text),
      })),
  })).filter((g) => g.prompts.length > 0);
  return groups.sort(
    (a, b) =>
      Number(a.category === 'other') - Number(b.category === 'other') || b.prompts.length - a.prompts.length,
  );
}
