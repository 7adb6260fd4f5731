import { LIMITS, normaliseCollegeName, trigrams } from '@ct/contracts';
import { MAJORS, type CatalogueMajor } from './majors.ts';

/** Similarity of two trigram sets: shared over all, 0..1. */
function setSimilarity(ta: Set<string>, tb: Set<string>): number {
  if (!ta.size || !tb.size) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** pg_trgm's default similarity threshold: below it a text is not considered similar. */
const SIMILARITY_THRESHOLD = 0.3;

interface IndexedText {
  text: string;
  /** With a leading space, so " word" finds a word start anywhere, the first one included */
  spaced: string;
  grams: Set<string>;
}
interface Indexed {
  major: CatalogueMajor;
  /** Normalised name first, then title and aliases; their trigrams computed once */
  texts: IndexedText[];
}

const INDEX: Indexed[] = MAJORS.map((major) => ({
  major,
  texts: [...new Set([major.name, major.title, ...major.aliases].map(normaliseCollegeName))].map((text) => ({
    text,
    spaced: ` ${text}`,
    grams: new Set(trigrams(text)),
  })),
}));

/** 0 prefix, 1 a word starts with the text, 2 similar; null when the major does not match at all. */
function tier(q: string, qGrams: Set<string>, texts: IndexedText[]): { tier: number; score: number } | null {
  let best: { tier: number; score: number } | null = null;
  for (const t of texts) {
    const score = setSimilarity(qGrams, t.grams);
    let tr: number | null = null;
    if (t.text.startsWith(q)) tr = 0;
    else if (t.spaced.includes(` ${q}`)) tr = 1;
    else if (score >= SIMILARITY_THRESHOLD || (q.length >= 5 && t.text.includes(q))) tr = 2;
    if (tr === null) continue;
    if (!best || tr < best.tier || (tr === best.tier && score > best.score)) best = { tier: tr, score };
  }
  return best;
}

/**
 * Majors for what a student typed: those whose name (or title, or a common abbreviation) starts with the
 * text, then those with a word starting with it, then similar ones (trigram similarity as pg_trgm computes
 * it, or, from 5 characters, the text inside a word); within a group the closest first, then the shorter name. Fewer than 3 characters
 * give nothing, as the client never asks for less.
 */
export function suggestMajors(query: string, limit: number = LIMITS.suggestionMaxResults): CatalogueMajor[] {
  const q = normaliseCollegeName(query);
  if (q.length < LIMITS.suggestionMinLength) return [];
  const qGrams = new Set(trigrams(q));
  const ranked: Array<{ major: CatalogueMajor; tier: number; score: number }> = [];
  for (const { major, texts } of INDEX) {
    const m = tier(q, qGrams, texts);
    if (m) ranked.push({ major, ...m });
  }
  ranked.sort(
    (a, b) =>
      a.tier - b.tier ||
      b.score - a.score ||
      a.major.name.length - b.major.name.length ||
      a.major.name.localeCompare(b.major.name),
  );
  return ranked.slice(0, limit).map((r) => r.major);
}

const BY_TEXT = new Map<string, CatalogueMajor>();
for (const { major, texts } of INDEX) {
  for (const { text } of texts) if (!BY_TEXT.has(text)) BY_TEXT.set(text, major);
}
const BY_CIP = new Map(MAJORS.map((m) => [m.cip, m]));

/**
 * The major a student means: its name, official title, a common abbreviation or its CIP code, in any case
 * and punctuation. Null when the text is not one of the product's majors.
 */
export function resolveMajor(text: string): CatalogueMajor | null {
  const trimmed = text.trim();
  return BY_CIP.get(trimmed) ?? BY_TEXT.get(normaliseCollegeName(trimmed)) ?? null;
}
