import type { EssayDraft, PromptDetail, SeasonCollege } from '@ct/contracts';
import { essayPromptKey, parseWordLimit } from '@ct/contracts/planning';
import { compareIso } from '@ct/contracts/numbers';

/** A college's essays for the overview: prompts drafted and those over their word limit. */
export interface EssayProgress {
  prompts: number;
  drafted: number;
  overLimit: number;
  /** "312 / 650 words" per drafted prompt */
  words: Array<{ prompt: string; count: number; limit: number | null }>;
}

/** Essays of one college, from its prompts and the student's drafts (stored per prompt text). */
export function essayProgress(
  prompts: readonly PromptDetail[],
  drafts: readonly EssayDraft[],
): EssayProgress {
  const byKey = new Map(drafts.map((d) => [d.promptKey, d]));
  const words: EssayProgress['words'] = [];
  for (const p of prompts) {
    const d = byKey.get(essayPromptKey(p.prompt));
    if (d && d.wordCount > 0)
      words.push({ prompt: p.prompt, count: d.wordCount, limit: p.wordLimit ?? parseWordLimit(p.prompt) });
  }
  return {
    prompts: prompts.length,
    drafted: words.length,
    overLimit: words.filter((w) => w.limit !== null && w.count > w.limit).length,
    words,
  };
}

/** The list sorted by next date, soonest first; colleges without one keep their order, last. */
export function byNextDate(colleges: readonly SeasonCollege[]): SeasonCollege[] {
  return colleges
    .map((c, i) => ({ c, i }))
    .sort((a, b) => {
      const x = a.c.nextDate?.date;
      const y = b.c.nextDate?.date;
      if (x && y) return compareIso(x, y) || a.i - b.i;
      if (x) return -1;
      if (y) return 1;
      return a.i - b.i;
    })
    .map(({ c }) => c);
}
