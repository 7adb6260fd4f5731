import type { College, getCollegeSuggestions, searchCollege } from '@ct/contracts';
import { api, ApiError } from '../../api/client';

/** Names of cached colleges for the autocomplete (the server answers only for 3+ characters). */
export async function fetchCollegeSuggestions(query: string, signal: AbortSignal): Promise<string[]> {
  const r = await api<typeof getCollegeSuggestions>('GET', '/get-college-suggestions', {
    query: { query },
    signal,
  });
  return r.suggestions;
}

/** A cached college, or null when the cache has none by that name or alias. */
export async function fetchCachedCollege(name: string, signal?: AbortSignal): Promise<College | null> {
  try {
    const r = await api<typeof searchCollege>('GET', '/search-college', {
      query: { name },
      ...(signal ? { signal } : {}),
    });
    return r.data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
