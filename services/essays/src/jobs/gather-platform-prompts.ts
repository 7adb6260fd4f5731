import { GatherPlatformPromptsJob } from '@ct/contracts';
import { defineJob } from '@ct/jobs';
import { ProviderError } from '@ct/providers';
import { PermanentJobError } from '@ct/queue';
import Type from 'typebox';
import { ESSAYS_MSG } from '../messages.ts';
import type { PromptInput } from '../repositories/essays.ts';
import { COMMON_APP, UNIVERSITY_OF_CALIFORNIA } from '../seed.ts';
import type { EssayJobDeps } from './worker.ts';

const Num = Type.Union([Type.Integer(), Type.Null()]);
const Url = Type.Union([Type.String(), Type.Null()], {
  description: 'The URL of the official page the prompts were read on; null when not found',
});

/** What the AI provider is asked for: each platform's prompts, verbatim, with the page they are on. */
const PlatformPromptsAnswer = Type.Object({
  commonApp: Type.Object({
    prompts: Type.Array(Type.String(), { description: 'The personal essay prompts, word for word' }),
    wordLimitMin: Num,
    wordLimitMax: Num,
    sourceUrl: Url,
  }),
  universityOfCalifornia: Type.Object({
    prompts: Type.Array(Type.String(), { description: 'The Personal Insight Questions, word for word' }),
    wordLimit: Num,
    sourceUrl: Url,
  }),
});

const INSTRUCTIONS = `You find the essay prompts of two application platforms for first-year applicants in the admission
cycle you are given: the Common App personal essay prompts (on commonapp.org) and the University of California
Personal Insight Questions (on universityofcalifornia.edu). Read only those official pages. Quote every prompt
word for word, in the order the page lists them, with the word limits the page states and the URL of the page.
When a page cannot be found or does not list the prompts, give an empty list, null limits and a null URL.
Never write, paraphrase or complete a prompt yourself.`;

/** Official hosts whose pages may vouch for each platform's prompts. */
const OFFICIAL = {
  commonApp: /(^|\.)commonapp\.org$/i,
  universityOfCalifornia: /(^|\.)universityofcalifornia\.edu$/i,
};

function officialUrl(url: string | null, host: RegExp): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && host.test(u.hostname) && url.length <= 2000 ? u.toString() : null;
  } catch {
    return null;
  }
}

const clean = (list: string[]) =>
  [
    ...new Set(
      list.map((p) => p.replace(/\s+/g, ' ').trim()).filter((p) => p.length >= 20 && p.length <= 5000),
    ),
  ].slice(0, 12);

const PLATFORMS = { commonApp: COMMON_APP, universityOfCalifornia: UNIVERSITY_OF_CALIFORNIA } as const;

/**
 * Gathers the Common App and UC prompts with the AI provider (web search) and stores each platform's list
 * only when it was read on that platform's own site: a prompt list is never made up or taken from
 * elsewhere.
 */
export const platformPromptsJob = defineJob(GatherPlatformPromptsJob, async (job, deps: EssayJobDeps) => {
  const { repo, log, writer: ai } = deps;
  if (!ai) throw new PermanentJobError(ESSAYS_MSG.noAiProvider);
  let answer;
  try {
    answer = await ai.gatherJson({
      instructions: INSTRUCTIONS,
      input: `Admission cycle: ${job.data.cycle} (first-year applicants).`,
      schema: PlatformPromptsAnswer,
      schemaName: 'platform_prompts',
    });
  } catch (err) {
    if (err instanceof ProviderError && !err.retryable) throw new PermanentJobError(err.message);
    throw err;
  }
  const { commonApp: ca, universityOfCalifornia: uc } = answer.value;
  const saved: string[] = [];
  const save = async (platform: keyof typeof PLATFORMS, prompts: PromptInput[]) => {
    await repo.saveCollegePrompts({ name: PLATFORMS[platform], kind: 'application' }, prompts);
    saved.push(platform);
  };
  const caUrl = officialUrl(ca.sourceUrl, OFFICIAL.commonApp);
  const caPrompts = clean(ca.prompts);
  if (caUrl && caPrompts.length) {
    await save(
      'commonApp',
      caPrompts.map((text) => ({
        text,
        wordLimit: ca.wordLimitMax,
        wordMin: ca.wordLimitMin,
        sourceUrl: caUrl,
      })),
    );
  }
  const ucUrl = officialUrl(uc.sourceUrl, OFFICIAL.universityOfCalifornia);
  const ucPrompts = clean(uc.prompts);
  if (ucUrl && ucPrompts.length) {
    const note = ucPrompts.length === 8 ? 'Answer 4 of the 8 questions.' : null;
    await save(
      'universityOfCalifornia',
      ucPrompts.map((text) => ({ text, wordLimit: uc.wordLimit, sourceUrl: ucUrl, note })),
    );
  }
  log.info({ cycle: job.data.cycle, saved }, 'platform essay prompts gathered');
  return { saved };
});
