/** Words that say what kind of school it is, not which one: left out of a calendar marker. */
const GENERIC = new Set([
  'the',
  'of',
  'at',
  'and',
  'in',
  'university',
  'college',
  'institute',
  'school',
  'academy',
  'community',
  'state',
  'main',
  'campus',
]);

/**
 * A marker's text in a calendar day: a college by the word that tells it apart ("University of
 * Michigan-Ann Arbor" → "Michigan", "Colby College" → "Colby"; an aid date by its form: "FAFSA"); a note
 * by its title. The full name stays in the marker's tooltip and in the day's list.
 */
export function markerLabel(summary: string, source: 'college' | 'note' | 'aid'): string {
  const text = summary.trim();
  if (source === 'note') return text;
  const words = text.split(/[\s\-–—,]+/).filter(Boolean);
  return words.find((w) => !GENERIC.has(w.toLowerCase())) ?? words[0] ?? text;
}
