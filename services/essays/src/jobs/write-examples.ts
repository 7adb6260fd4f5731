import { LIMITS, WriteExampleEssaysJob } from '@ct/contracts';
import { defineJob } from '@ct/jobs';
import { ProviderError } from '@ct/providers';
import { PermanentJobError } from '@ct/queue';
import Type from 'typebox';
import type { EssayJobDeps } from './worker.ts';

/** The longest title stored; the longest body is an example essay's (a longer one is not an essay a student can learn from). */
const MAX_TITLE = 300;
const MAX_BODY = LIMITS.exampleEssayMax;

/** How many examples are written for each prompt. */
export const EXAMPLES_PER_PROMPT = 2;

/** The answer asked of the model: short titled essays. */
const ExamplesAnswer = Type.Object({
  essays: Type.Array(
    Type.Object({
      title: Type.String({ description: 'A short title for the example essay' }),
      body: Type.String({ description: 'The example essay, paragraphs separated by blank lines' }),
    }),
  ),
});

const INSTRUCTIONS = [
  'You write example college application essays for high-school students to learn from.',
  `Write ${EXAMPLES_PER_PROMPT} different example essays answering the prompt you are given, each with a short title.`,
  'They are examples: invent a plausible, ordinary student, never describe or name a real person, and never claim',
  'the essay was written by a real applicant. Show a clear structure, concrete details and an authentic voice.',
  'Respect the word limit when one is given. Do not include any commentary outside the essays.',
].join(' ');

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * Writes a prompt's example essays once, with the AI provider, and stores them with their request row
 * closed in one transaction. Without a provider the request is marked unavailable (the page then says no
 * essays were found) rather than inventing text.
 */
export const essayExamplesJob = defineJob(WriteExampleEssaysJob, async (job, deps: EssayJobDeps) => {
  const { repo, log, writer: ai } = deps;
  const key = job.data.promptKey;
  const update = (state: 'running' | 'queued' | 'failed' | 'unavailable', reason?: string) =>
    repo.advanceRequest(key, state, reason ?? null);
  if (!ai) {
    await update('unavailable', 'No AI provider is configured');
    return { unavailable: true };
  }
  const req = await update('running');
  if (!req) return { skipped: true };
  try {
    const limit = req.wordLimit;
    const answer = await ai.gatherJson({
      instructions: INSTRUCTIONS,
      input: `Prompt: ${req.promptText}\n${limit ? `Word limit: ${limit} words.` : 'No word limit is given; aim for about 500 words.'}`,
      schema: ExamplesAnswer,
      schemaName: 'example_essays',
      webSearch: false,
    });
    const essays = answer.value.essays
      .map((e) => ({ title: e.title.trim().slice(0, MAX_TITLE) || null, body: e.body.trim() }))
      // An example that ignores the word limit teaches the wrong lesson; a little slack for counting.
      .filter(
        (e) =>
          e.body && e.body.length <= MAX_BODY && (!limit || countWords(e.body) <= Math.ceil(limit * 1.05)),
      )
      .slice(0, EXAMPLES_PER_PROMPT);
    if (!essays.length) {
      throw new ProviderError('openai', 'malformed', 'wrote no usable example within the word limit');
    }
    await repo.completeRequest(key, essays, `ai:${answer.model}`);
    return { written: essays.length };
  } catch (err) {
    // Handed back on shutdown: another worker runs it again; nothing to report.
    if (job.signal?.aborted) throw err;
    const retryable = err instanceof ProviderError ? err.retryable : true;
    const last = !retryable || job.attemptsMade + 1 >= job.attempts;
    const reason = err instanceof ProviderError ? err.message : 'Writing the examples failed';
    await update(last ? 'failed' : 'queued', reason);
    log.warn({ promptKey: key, attempt: job.attemptsMade + 1, reason }, 'example essays not written');
    if (!retryable) throw new PermanentJobError(reason);
    throw err;
  }
});
