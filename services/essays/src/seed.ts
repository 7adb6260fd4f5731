import fs from 'node:fs';
import type { EssaysRepository, PromptInput } from './repositories/essays.ts';

/**
 * The Common App and University of California prompts are not shipped with the product: they come from
 * the AI provider (platform.ts, from the platforms' official pages) or from an operator's file named by
 * ESSAY_PROMPTS_FILE, in this shape (e.g. the published prompts of the cycle, as JSON).
 */
interface PromptsFile {
  common_app?: {
    word_limit_min?: number;
    word_limit_max?: number;
    source_url?: string;
    prompts?: Array<{ id: string; text: string }>;
  };
  common_app_challenges_question?: { exists?: boolean; text?: string; notes?: string };
  uc_piq?: { instructions?: string; source_url?: string; prompts?: Array<{ id: string; text: string }> };
}

/** The two application platforms whose prompts serve many colleges, as the essays page names them. */
export const COMMON_APP = 'Common App';
export const UNIVERSITY_OF_CALIFORNIA = 'University of California';

/** "(250 words)" at the end of a question: its word limit. */
function trailingWordLimit(text: string): number | null {
  const m = /\((\d{2,4}) words\)\s*$/.exec(text);
  return m ? Number(m[1]) : null;
}

/** Reads the file and turns it into the two platforms' prompt lists. Throws when the file is unreadable. */
export function readPlatformPrompts(file: string): Array<{ name: string; prompts: PromptInput[] }> {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as PromptsFile;
  const out: Array<{ name: string; prompts: PromptInput[] }> = [];
  const ca = data.common_app;
  if (ca?.prompts?.length) {
    const prompts: PromptInput[] = ca.prompts.map((p) => ({
      text: p.text,
      wordLimit: ca.word_limit_max ?? null,
      wordMin: ca.word_limit_min ?? null,
      sourceUrl: ca.source_url ?? null,
    }));
    const ch = data.common_app_challenges_question;
    if (ch?.exists && ch.text) {
      prompts.push({
        // The file marks where the follow-up question starts; students read the question without it.
        text: ch.text.replace(/\s*\[If yes:\]\s*/, ' ').replace(/\s*\(\d{2,4} words\)\s*$/, ''),
        wordLimit: trailingWordLimit(ch.text),
        sourceUrl: ca.source_url ?? null,
        note: 'Optional question. Its exact wording is only visible inside the application, so this text may differ slightly.',
      });
    }
    out.push({ name: COMMON_APP, prompts });
  }
  const uc = data.uc_piq;
  if (uc?.prompts?.length) {
    const limit = /maximum of (\d+) words/i.exec(uc.instructions ?? '');
    out.push({
      name: UNIVERSITY_OF_CALIFORNIA,
      prompts: uc.prompts.map((p) => ({
        text: p.text,
        wordLimit: limit ? Number(limit[1]) : null,
        sourceUrl: uc.source_url ?? null,
        note: uc.instructions ? 'Answer 4 of the 8 questions.' : null,
      })),
    });
  }
  return out;
}

/** Seeds (or refreshes) the Common App and UC prompts from an operator's file. Idempotent. */
export async function seedPlatformPrompts(repo: EssaysRepository, file: string): Promise<number> {
  const platforms = readPlatformPrompts(file);
  for (const p of platforms) await repo.saveCollegePrompts({ name: p.name, kind: 'application' }, p.prompts);
  return platforms.length;
}
