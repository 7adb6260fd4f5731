import { api } from '../../api/client';

export const fetchEssayColleges = (signal?: AbortSignal) => api.getCollegesEssays({ signal });

export const fetchPrompts = (collegeName: string, signal?: AbortSignal) =>
  api.getPrompts({ collegeName }, { signal });

export const fetchEssays = (collegeName: string, prompt: string, signal?: AbortSignal) =>
  api.getEssays({ collegeName, prompt }, { signal });

export const fetchPromptGroups = (signal?: AbortSignal) => api.getPromptGroups({ signal });

/** "Up to 650 words", "250–650 words", or null when the college publishes no limit. */
export function wordLimitText(limit: number | null | undefined, min?: number | null): string | null {
  if (!limit) return null;
  return min ? `${min}–${limit} words` : `Up to ${limit} words`;
}
