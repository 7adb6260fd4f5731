import { ESSAY_EXAMPLES_QUEUE, WriteExampleEssaysJob, type WriteExampleEssaysJobData } from '@ct/contracts';
import type { TrackedKind } from '@ct/jobs';
import { ProviderError, type AiClient } from '@ct/providers';
import { PermanentJobError, type JobHandler } from '@ct/queue';
import type { FastifyBaseLogger } from 'fastify';
import Type from 'typebox';
import type { EssaysRepository, ExampleRequestRow } from '../repositories/essays.ts';

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

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * Example essays as tracked work: one request row per prompt text (one job, however many students ask),
 * given back by the sweep when the queue loses its job.
 */
export function examplesKind(
  repo: EssaysRepository,
): TrackedKind<typeof WriteExampleEssaysJob.schema, ExampleRequestRow> {
  return {
    job: WriteExampleEssaysJob,
    queue: ESSAY_EXAMPLES_QUEUE,
    attempts: 3,
    backoffMs: 2000,
    pending: (limit) => repo.pendingRequests(limit),
    find: (key) => repo.findRequest(key),
    giveUp: (key) => repo.giveUpRequest(key, 'Writing the examples was interrupted too many times.'),
    data: (req) => ({ promptKey: req.key }),
  };
}

/**
 * Writes a prompt's example essays once, with the AI provider, and stores them. Without a provider the
 * request is marked unavailable (the page then says no essays were found) rather than inventing text.
 */
export function writeExamplesHandler(
  repo: EssaysRepository,
  ai: AiClient | null,
  log: FastifyBaseLogger,
): JobHandler<WriteExampleEssaysJobData> {
  return async (job) => {
    const key = job.data.promptKey;
    const req = await repo.findRequest(key);
    if (!req || req.state === 'done') return { skipped: true };
    if (!ai) {
      await repo.markRequest(key, 'unavailable', 'No AI provider is configured');
      return { unavailable: true };
    }
    await repo.markRequest(key, 'running');
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
        .map((e) => ({ title: e.title.trim() || null, body: e.body.trim() }))
        // An example that ignores the word limit teaches the wrong lesson; a little slack for counting.
        .filter((e) => e.body && (!limit || countWords(e.body) <= Math.ceil(limit * 1.05)))
        .slice(0, EXAMPLES_PER_PROMPT);
      if (!essays.length) {
        throw new ProviderError('openai', 'malformed', 'wrote no usable example within the word limit');
      }
      await repo.completeRequest(key, essays, `ai:${answer.model}`);
      return { written: essays.length };
    } catch (err) {
      const retryable = err instanceof ProviderError ? err.retryable : true;
      const last = !retryable || job.attemptsMade + 1 >= job.attempts;
      const reason = err instanceof ProviderError ? err.message : 'Writing the examples failed';
      await repo.markRequest(key, last ? 'failed' : 'queued', reason);
      log.warn({ promptKey: key, attempt: job.attemptsMade + 1, reason }, 'example essays not written');
      if (!retryable) throw new PermanentJobError(reason);
      throw err;
    }
  };
}
