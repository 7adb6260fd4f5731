import { fileURLToPath } from 'node:url';
import {
  addExampleEssay,
  CollegeIngestedEvent,
  CollegeRemovedEvent,
  ESSAY_EXAMPLES_QUEUE,
  GatherPlatformPromptsJob,
  getCollegesEssays,
  getEssays,
  getMyEssayPrompts,
  getPromptGroups,
  getPrompts,
  getUserColleges,
  MSG,
  PROMPT_CATEGORIES,
  type GatherPlatformPromptsJobData,
  type PromptGroup,
  type WriteExampleEssaysJobData,
} from '@ct/contracts';
import { TrackedJobs } from '@ct/jobs';
import { AiClient } from '@ct/providers';
import { PermanentJobError } from '@ct/queue';
import { AppError, defineService, implement, registerRoutes, requireUser } from '@ct/service-kit';
import type { FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import { CATEGORY_TEXT } from './categories.ts';
import { EssaysConfig } from './config.ts';
import { examplesKind, writeExamplesHandler } from './examples.ts';
import { EssaysRepository, promptKey } from './repository.ts';
import { enqueuePlatformPrompts, gatherPlatformPromptsHandler } from './platform.ts';
import { COMMON_APP, seedPlatformPrompts } from './seed.ts';

/** A failed example request is shown as failed for this long before a new request tries again. */
const RETRY_FAILED_AFTER_MS = 5 * 60_000;

function aiClient(config: EssaysConfig): AiClient | null {
  if (!config.OPENAI_API_KEY) return null;
  return new AiClient({
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
    timeoutMs: config.OPENAI_TIMEOUT_MS,
  });
}

/** The essays service: colleges that have prompts, their prompts, example essays per prompt. */
export default defineService({
  name: 'essays',
  schema: 'essays',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: EssaysConfig,
  async plugin(app, ctx) {
    const repo = new EssaysRepository(ctx.db);
    const aiConfigured = Boolean(ctx.config.OPENAI_API_KEY);
    const jobs = new TrackedJobs(ctx.queue, ctx.log);
    const exampleWork = examplesKind(repo);

    /** The student's college names in list order, read through user-data's API. */
    async function studentCollegeNames(request: FastifyRequest, unavailable: string): Promise<string[]> {
      requireUser(request);
      try {
        const mine = await ctx.clients.call(getUserColleges, { auth: request.auth, requestId: request.id });
        return mine.colleges.map((c) => c.collegeName);
      } catch (err) {
        request.log.warn({ err }, 'could not load the student colleges');
        throw new AppError('DEPENDENCY_UNAVAILABLE', unavailable);
      }
    }

    registerRoutes(app, ctx, [
      implement(getCollegesEssays, async () => {
        const list = await repo.listCollegesWithPrompts();
        return {
          success: true,
          message: 'Colleges found',
          colleges: list.map((c) => c.name),
          applications: list.filter((c) => c.application).map((c) => c.name),
        };
      }),

      implement(getPrompts, async (request) => {
        const college = await repo.findCollege(request.query.collegeName);
        const details = college ? await repo.listPrompts(college.id) : [];
        if (!details.length) throw new AppError('NOT_FOUND', MSG.noPromptsFound);
        return { success: true, message: 'Prompts found', prompts: details.map((d) => d.prompt), details };
      }),

      implement(getEssays, async (request, reply) => {
        const college = await repo.findCollege(request.query.collegeName);
        if (!college) throw new AppError('NOT_FOUND', MSG.noPromptsFound);
        const prompt = await repo.findPrompt(college.id, request.query.prompt);
        if (!prompt) throw new AppError('NOT_FOUND', MSG.noEssaysFound);
        const key = promptKey(prompt.prompt);
        const examples = await repo.listExamples(key);
        if (examples.length) {
          return { success: true, message: 'Essays found', essays: examples.map((e) => e.text), examples };
        }
        if (!aiConfigured) throw new AppError('NOT_FOUND', MSG.noEssaysFound);
        let req = await repo.requestExamples(
          key,
          { text: prompt.prompt, wordLimit: prompt.wordLimit },
          RETRY_FAILED_AFTER_MS,
        );
        if (req) {
          await jobs.request(exampleWork, req, request.id);
        } else {
          req = await repo.findRequest(key);
          if (!req || req.state === 'unavailable') throw new AppError('NOT_FOUND', MSG.noEssaysFound);
          if (req.state === 'failed') {
            throw new AppError(
              'DEPENDENCY_UNAVAILABLE',
              `We could not write example essays for this prompt right now` +
                (req.failureReason ? `: ${req.failureReason.replace(/\.$/, '')}` : '') +
                '. Please try again in a few minutes.',
            );
          }
          if (req.state === 'done') {
            // Written, then every example removed: nothing to show, nothing to write again.
            throw new AppError('NOT_FOUND', MSG.noEssaysFound);
          }
          // Waiting or running: a job the queue lost is given back by the sweep.
        }
        reply.status(202);
        return {
          success: true,
          message: 'Writing example essays for this prompt',
          essays: [],
          state: req.state,
        };
      }),

      implement(getPromptGroups, async (request) => {
        const names = await studentCollegeNames(
          request,
          'Your colleges could not be loaded right now, so prompts cannot be grouped. Please try again later.',
        );
        const rows = await repo.promptsOfColleges(names);
        const groups: PromptGroup[] = PROMPT_CATEGORIES.map((category) => ({
          category,
          ...CATEGORY_TEXT[category],
          prompts: rows
            .filter((r) => r.category === category)
            .map(({ collegeName, prompt, wordLimit }) => ({ collegeName, prompt, wordLimit })),
        })).filter((g) => g.prompts.length > 0);
        // Groups that one draft can serve (several prompts) first; "other" always last.
        groups.sort(
          (a, b) =>
            Number(a.category === 'other') - Number(b.category === 'other') ||
            b.prompts.length - a.prompts.length,
        );
        return {
          success: true,
          message: 'Prompt groups found',
          colleges: [...new Set(rows.map((r) => r.collegeName))],
          groups,
        };
      }),

      implement(getMyEssayPrompts, async (request) => {
        const names = await studentCollegeNames(
          request,
          'Your colleges could not be loaded right now, so their prompts cannot be shown. Please try again later.',
        );
        const prompts = await repo.promptDetailsByCollege(names);
        return {
          success: true,
          message: 'Prompts found',
          colleges: names.map((collegeName) => ({ collegeName, prompts: prompts.get(collegeName) ?? [] })),
        };
      }),

      implement(addExampleEssay, async (request, reply) => {
        const uid = requireUser(request);
        const prompt = await repo.findPromptAnywhere(request.body.prompt);
        if (!prompt) {
          throw new AppError('NOT_FOUND', 'That prompt is not one of the prompts we have for any college');
        }
        const example = await repo.addExample(promptKey(prompt.prompt), {
          title: request.body.title?.trim() || null,
          body: request.body.essay.trim(),
          origin: 'admin',
          addedBy: uid,
        });
        reply.status(201);
        return { success: true, message: 'Example essay added', example };
      }),
    ]);
  },

  async start(ctx) {
    const repo = new EssaysRepository(ctx.db);
    const { config } = ctx;
    const jobs = new TrackedJobs(ctx.queue, ctx.log);
    jobs.track(examplesKind(repo));
    ctx.onClose(await jobs.start(config.ESSAY_EXAMPLES_SWEEP_MS));
    const ai = aiClient(config);
    // The Common App and UC prompts are not shipped: an operator's file, else the AI provider gathers
    // them from the platforms' own pages; with neither, only colleges' own gathered prompts are listed.
    const file = config.ESSAY_PROMPTS_FILE;
    if (file) {
      try {
        const seeded = await seedPlatformPrompts(repo, file);
        ctx.log.info({ file, platforms: seeded }, 'Common App and UC prompts seeded from ESSAY_PROMPTS_FILE');
      } catch (err) {
        ctx.log.error({ err, file }, 'Common App and UC prompts could not be read from ESSAY_PROMPTS_FILE');
      }
    } else if (ai) {
      const known = await repo.findCollege(COMMON_APP);
      if (!known || !(await repo.listPrompts(known.id)).length) {
        await enqueuePlatformPrompts(ctx.queue).catch((err: unknown) => {
          ctx.log.warn({ err }, 'could not queue the gathering of the Common App and UC prompts');
        });
      }
    } else {
      ctx.log.info('no ESSAY_PROMPTS_FILE and no AI provider: the Common App and UC prompts are not listed');
    }

    const events = ctx.bus.subscribe('essays', {
      [CollegeIngestedEvent.name]: async (job) => {
        if (!Value.Check(CollegeIngestedEvent.schema, job.data)) {
          throw new PermanentJobError('college.ingested event with an unexpected shape');
        }
        const e = job.data;
        const limits = new Map((e.essayPromptMeta ?? []).map((m) => [promptKey(m.prompt), m.wordLimit]));
        await repo.saveCollegePrompts(
          { name: e.name, aliases: e.aliases },
          e.essayPrompts.map((text) => ({ text, wordLimit: limits.get(promptKey(text)) ?? null })),
        );
        return { prompts: e.essayPrompts.length };
      },
      // A college an admin deleted or merged leaves the essays grid (one private to some students never
      // reached it). Its example essays stay with their prompt's text, which other colleges may share.
      [CollegeRemovedEvent.name]: async (job) => {
        if (!Value.Check(CollegeRemovedEvent.schema, job.data)) {
          throw new PermanentJobError('college.removed event with an unexpected shape');
        }
        if (job.data.students !== null) return { removed: false };
        return { removed: await repo.removeCollege(job.data.name) };
      },
    });
    ctx.onClose(() => events.close());

    const writeExamples = writeExamplesHandler(repo, ai, ctx.log);
    const gatherPrompts = ai ? gatherPlatformPromptsHandler(repo, ai, ctx.log) : null;
    const writer = ctx.queue.process<WriteExampleEssaysJobData | GatherPlatformPromptsJobData>(
      ESSAY_EXAMPLES_QUEUE,
      async (job) => {
        if (job.name === GatherPlatformPromptsJob.name) {
          if (!gatherPrompts) throw new PermanentJobError('No AI provider is configured');
          return gatherPrompts(job as typeof job & { data: GatherPlatformPromptsJobData });
        }
        return writeExamples(job as typeof job & { data: WriteExampleEssaysJobData });
      },
      { concurrency: config.ESSAY_EXAMPLES_CONCURRENCY },
    );
    ctx.onClose(() => writer.close());
  },
});
