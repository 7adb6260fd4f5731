import type { EssayDraft, PromptDetail } from '@ct/contracts';
import { essayPromptKey, parseWordLimit } from '@ct/contracts/planning';

/** One draft to write: a prompt, and every college of the student that asks it (or one that reads the same). */
export interface DraftSlot {
  /** `essayPromptKey` of the prompt: drafts are stored under it */
  key: string;
  /** The prompt as the first college asking it words it */
  prompt: string;
  colleges: string[];
  /** The strictest limit any of those colleges sets (a draft must fit them all) */
  wordLimit: number | null;
  wordMin: number | null;
}

/**
 * The drafts a student needs: one per prompt text across their colleges, in list order. Prompts that read
 * the same (ignoring case, punctuation and word-limit notes) share one slot, so one draft serves them all.
 */
export function draftSlots(
  colleges: ReadonlyArray<{ collegeName: string; prompts: PromptDetail[] }>,
): DraftSlot[] {
  const slots = new Map<string, DraftSlot>();
  for (const { collegeName, prompts } of colleges) {
    for (const p of prompts) {
      const key = essayPromptKey(p.prompt);
      if (!key) continue;
      const limit = p.wordLimit ?? parseWordLimit(p.prompt);
      const slot = slots.get(key);
      if (!slot) {
        slots.set(key, {
          key,
          prompt: p.prompt,
          colleges: [collegeName],
          wordLimit: limit,
          wordMin: p.wordMin,
        });
        continue;
      }
      if (!slot.colleges.includes(collegeName)) slot.colleges.push(collegeName);
      if (limit !== null) slot.wordLimit = slot.wordLimit === null ? limit : Math.min(slot.wordLimit, limit);
      if (p.wordMin !== null) slot.wordMin = Math.max(slot.wordMin ?? 0, p.wordMin);
    }
  }
  return [...slots.values()];
}

/** Drafts whose prompt no college on the list asks any more (a college removed): kept, never hidden. */
export function orphanDrafts(drafts: readonly EssayDraft[], slots: readonly DraftSlot[]): EssayDraft[] {
  const keys = new Set(slots.map((s) => s.key));
  return drafts.filter((d) => !keys.has(d.promptKey));
}

/** "312 / 650 words", "700 / 650 words (50 over)", "120 words". */
export function wordCountText(count: number, limit: number | null): string {
  const words = `${count} ${count === 1 ? 'word' : 'words'}`;
  if (limit === null) return words;
  const over = count - limit;
  return `${count} / ${limit} words${over > 0 ? ` (${over} over the limit)` : ''}`;
}

/** "Up to 650 words", "250–650 words", or null when the college publishes no limit. */
export function wordLimitText(limit: number | null | undefined, min?: number | null): string | null {
  if (!limit) return null;
  return min ? `${min}–${limit} words` : `Up to ${limit} words`;
}
