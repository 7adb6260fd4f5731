// Rows become API shapes here, and only here: repositories return what Postgres stores, routes answer
// with what packages/contracts/src/essays.ts describes.
import {
  essayPromptKey,
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
  const groups: PromptGroup[] = PROMPT_CATEGORIES.map((category) => {
    // The same prompt at several colleges is one draft (as the drafts list counts them), so it is one line.
    const byKey = new Map<string, PromptGroup['prompts'][number]>();
    for (const r of rows.filter((x) => x.category === category)) {
      const key = essayPromptKey(r.text) || r.text;
      const limit = r.word_limit ?? parseWordLimit(r.text);
      const seen = byKey.get(key);
      if (!seen) {
        byKey.set(key, { collegeName: r.name, colleges: [r.name], prompt: r.text, wordLimit: limit });
        continue;
      }
      if (!seen.colleges.includes(r.name)) seen.colleges.push(r.name);
      if (limit !== null) seen.wordLimit = seen.wordLimit === null ? limit : Math.min(seen.wordLimit, limit);
    }
    return { category, ...CATEGORY_TEXT[category], prompts: [...byKey.values()] };
  }).filter((g) => g.prompts.length > 0);
  return groups.sort(
    (a, b) =>
      Number(a.category === 'other') - Number(b.category === 'other') || b.prompts.length - a.prompts.length,
  );
}
