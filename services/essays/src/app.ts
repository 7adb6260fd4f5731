import { fileURLToPath } from 'node:url';
import { CollegeIngestedEvent, CollegeRemovedEvent } from '@ct/contracts';
import { PermanentJobError } from '@ct/queue';
import { defineService } from '@ct/service-kit';
import { Value } from 'typebox/value';
import { EssaysConfig } from './config.ts';
import { ESSAYS_MSG } from './messages.ts';
import { essayRoutes } from './routes/essays.ts';
import { studentRoutes } from './routes/students.ts';
import { makeDeps } from './deps.ts';
import { promptKey } from './repositories/essays.ts';
import { enqueuePlatformPrompts } from './jobs/platform-prompts.ts';
import { COMMON_APP, seedPlatformPrompts } from './seed.ts';

/** How often example requests whose job the queue lost get it back. */
const SWEEP_MS = 60_000;

/**
 * The essays service: colleges that have prompts, their prompts, example essays per prompt. It requests
 * essays work (example essays, platform prompts); the ingestion worker runs its job module
 * (`src/jobs/worker.ts`), whose handlers write this service's tables.
 */
export default defineService({
  name: 'essays',
  schema: 'essays',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: EssaysConfig,
  deps: makeDeps,
  routes: (deps) => [...essayRoutes(deps), ...studentRoutes(deps)],

  async start({ ctx, repo, jobs }) {
    const { config } = ctx;
    ctx.onClose(await jobs.start(SWEEP_MS));
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
    } else if (config.OPENAI_API_KEY) {
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
          throw new PermanentJobError(ESSAYS_MSG.malformedEvent(CollegeIngestedEvent.name));
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
          throw new PermanentJobError(ESSAYS_MSG.malformedEvent(CollegeRemovedEvent.name));
        }
        if (job.data.students !== null) return { removed: false };
        return { removed: await repo.removeCollege(job.data.name) };
      },
    });
    ctx.onClose(() => events.close());
  },
});
