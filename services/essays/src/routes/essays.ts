import {
  addExampleEssay,
  getCollegesEssays,
  getEssays,
  getMyEssayPrompts,
  getPromptGroups,
  getPrompts,
  getUserColleges,
  internalResolveCollege,
  MSG,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import type { FastifyRequest } from 'fastify';
import type { EssaysDeps } from '../deps.ts';
import { ESSAYS_MSG } from '../messages.ts';
import { presentExample, presentPrompt, presentPromptGroups } from '../presenters.ts';
import { promptKey } from '../repositories/essays.ts';

/** A failed example request is shown as failed for this long before a new request tries again. */
const RETRY_FAILED_AFTER_MS = 5 * 60_000;

/** The essays service's routes: colleges with prompts, prompts, prompt groups, example essays. */
export function essayRoutes({ ctx, repo, jobs, examples: exampleWork }: EssaysDeps): Implementation[] {
  const aiConfigured = Boolean(ctx.config.OPENAI_API_KEY);

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

  /**
   * The college a typed name means: the application platforms (Common App, UC) are this service's own;
   * every other name is resolved by the colleges service's one resolver, so the same name gives the same
   * college here as in search and in a student's list. Null when it means no college with prompts.
   */
  async function resolveCollege(request: FastifyRequest, typed: string) {
    const platform = await repo.findCollege(typed, 'application');
    if (platform) return platform;
    let name: string;
    try {
      name = (
        await ctx.clients.call(internalResolveCollege, {
          query: { name: typed },
          auth: request.auth,
          requestId: request.id,
        })
      ).name;
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 404) return null;
      request.log.warn({ err }, 'could not resolve the college name');
      throw new AppError('DEPENDENCY_UNAVAILABLE', ESSAYS_MSG.collegesUnavailable);
    }
    return repo.findCollege(name, 'college');
  }

  return [
    implement(getCollegesEssays, async () => {
      const list = await repo.listCollegesWithPrompts();
      return {
        success: true,
        message: ESSAYS_MSG.collegesFound,
        colleges: list.map((c) => c.name),
        applications: list.filter((c) => c.application).map((c) => c.name),
      };
    }),

    implement(getPrompts, async (request) => {
      const college = await resolveCollege(request, request.query.collegeName);
      const details = (college ? await repo.listPrompts(college.id) : []).map(presentPrompt);
      if (!details.length) throw new AppError('NOT_FOUND', MSG.noPromptsFound);
      return {
        success: true,
        message: ESSAYS_MSG.promptsFound,
        prompts: details.map((d) => d.prompt),
        details,
      };
    }),

    implement(getEssays, async (request, reply) => {
      const college = await resolveCollege(request, request.query.collegeName);
      if (!college) throw new AppError('NOT_FOUND', MSG.noPromptsFound);
      const found = await repo.findPrompt(college.id, request.query.prompt);
      if (!found) throw new AppError('NOT_FOUND', MSG.noEssaysFound);
      const prompt = presentPrompt(found);
      const key = promptKey(prompt.prompt);
      const found200 = (examples: ReturnType<typeof presentExample>[]) => ({
        success: true as const,
        message: ESSAYS_MSG.essaysFound,
        essays: examples.map((e) => e.text),
        examples,
      });
      const examples = (await repo.listExamples(key)).map(presentExample);
      if (examples.length) return found200(examples);
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
          throw new AppError('DEPENDENCY_UNAVAILABLE', ESSAYS_MSG.examplesFailed(req.failureReason));
        }
        if (req.state === 'done') {
          // Written since the examples were read above (the job finished meanwhile: the race that made
          // this a 404): read them again. Written, then every example removed: nothing to show.
          const written = (await repo.listExamples(key)).map(presentExample);
          if (written.length) return found200(written);
          throw new AppError('NOT_FOUND', MSG.noEssaysFound);
        }
        // Waiting or running: a job the queue lost is given back by the sweep.
      }
      reply.status(202);
      return {
        success: true,
        message: ESSAYS_MSG.writingExamples,
        essays: [],
        state: req.state,
      };
    }),

    implement(getPromptGroups, async (request) => {
      const names = await studentCollegeNames(request, ESSAYS_MSG.collegesUnavailableForGroups);
      const rows = await repo.promptsOfColleges(names);
      return {
        success: true,
        message: ESSAYS_MSG.promptGroupsFound,
        colleges: [...new Set(rows.map((r) => r.name))],
        groups: presentPromptGroups(rows),
      };
    }),

    implement(getMyEssayPrompts, async (request) => {
      const names = await studentCollegeNames(request, ESSAYS_MSG.collegesUnavailableForPrompts);
      const prompts = await repo.promptDetailsByCollege(names);
      return {
        success: true,
        message: ESSAYS_MSG.promptsFound,
        colleges: names.map((collegeName) => ({
          collegeName,
          prompts: (prompts.get(collegeName) ?? []).map(presentPrompt),
        })),
      };
    }),

    implement(addExampleEssay, async (request, reply) => {
      const uid = requireUser(request);
      const prompt = await repo.findPromptAnywhere(request.body.prompt);
      if (!prompt) throw new AppError('NOT_FOUND', ESSAYS_MSG.promptUnknown);
      const example = await repo.addExample(promptKey(prompt.text), {
        title: request.body.title?.trim() || null,
        body: request.body.essay.trim(),
        origin: 'admin',
        addedBy: uid,
      });
      reply.status(201);
      return { success: true, message: ESSAYS_MSG.exampleAdded, example: presentExample(example) };
    }),
  ];
}
