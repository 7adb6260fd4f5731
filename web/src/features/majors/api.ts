import { api } from '../../api/client';

export const fetchMajorSuggestions = (query: string, signal?: AbortSignal) =>
  api.getMajorSuggestions({ query }, { signal });

export const fetchMajorProfile = (collegeName: string, major: string, signal?: AbortSignal) =>
  api.getMajorProfile({ collegeName, major }, { signal });
