import type { getCollegesEssays, getEssays, getPromptGroups, getPrompts } from '@ct/contracts';
import { api } from '../../api/client';

export const fetchEssayColleges = (signal?: AbortSignal) =>
  api<typeof getCollegesEssays>('GET', '/get-colleges-essays', { signal });

export const fetchPrompts = (collegeName: string, signal?: AbortSignal) =>
  api<typeof getPrompts>('GET', '/get-prompts', { query: { collegeName }, signal });

export const fetchEssays = (collegeName: string, prompt: string, signal?: AbortSignal) =>
  api<typeof getEssays>('GET', '/get-essays', { query: { collegeName, prompt }, signal });

export const fetchPromptGroups = (signal?: AbortSignal) =>
  api<typeof getPromptGroups>('GET', '/get-prompt-groups', { signal });

/** "Up to 650 words", "250–650 words", or null when the college publishes no limit. */
export function wordLimitText(limit: number | null | undefined, min?: number | null): string | null {
  if (!limit) return null;
  return min ? `${min}–${limit} words` : `Up to ${limit} words`;
}
