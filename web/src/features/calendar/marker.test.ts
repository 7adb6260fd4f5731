import { describe, expect, it } from 'vitest';
import { markerLabel } from './marker';

describe('calendar marker label', () => {
  it('names a college by the word that tells it apart', () => {
    expect(markerLabel('University of Michigan-Ann Arbor', 'college')).toBe('Michigan');
    expect(markerLabel('Colby College', 'college')).toBe('Colby');
    expect(markerLabel('The College of New Jersey', 'college')).toBe('New');
    expect(markerLabel('Ohio State University-Main Campus', 'college')).toBe('Ohio');
  });

  it('keeps a generic-only name and a note title as they are', () => {
    expect(markerLabel('State University', 'college')).toBe('State');
    expect(markerLabel('Essay plan', 'note')).toBe('Essay plan');
  });
});
