import type { getMajorProfile, getMajorSuggestions } from '@ct/contracts';
import { api } from '../../api/client';

export const fetchMajorSuggestions = (query: string, signal?: AbortSignal) =>
  api<typeof getMajorSuggestions>('GET', '/get-major-suggestions', { query: { query }, signal });

export const fetchMajorProfile = (collegeName: string, major: string, signal?: AbortSignal) =>
  api<typeof getMajorProfile>('GET', '/get-major-profile', { query: { collegeName, major }, signal });
