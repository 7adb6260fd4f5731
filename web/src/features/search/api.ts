import type { College, Enrichment, UnverifiedFact } from '@ct/contracts';
import { api, ApiError } from '../../api/client';

/** Names of cached colleges for the autocomplete (the server answers only for 3+ characters). */
export async function fetchCollegeSuggestions(query: string, signal: AbortSignal): Promise<string[]> {
  const r = await api.getCollegeSuggestions({ query }, { signal });
  return r.suggestions;
}

/** A found college with what the card says about it: who can see it, and its facts still coming. */
export interface CollegeView {
  college: College;
  /** false: only the students who asked for it see it, until an admin reviews it */
  shared: boolean;
  enrichment: Enrichment;
  /** What an AI answer said that no official page vouched for: only this student sees it, until reviewed */
  unverified: UnverifiedFact[];
}

/** A cached college with its view, or null when the cache has none by that name or alias. */
export async function fetchCollegeView(name: string, signal?: AbortSignal): Promise<CollegeView | null> {
  try {
    const r = await api.searchCollege({ name }, { signal });
    return {
      college: r.data,
      shared: r.shared ?? true,
      enrichment: r.enrichment ?? { state: 'done', message: null },
      unverified: r.unverified ?? [],
    };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** A cached college, or null when the cache has none by that name or alias. */
export async function fetchCachedCollege(name: string, signal?: AbortSignal): Promise<College | null> {
  return (await fetchCollegeView(name, signal))?.college ?? null;
}
