import { internalCompleteExamples, internalSavePlatformPrompts, internalUpdateExamples } from '@ct/contracts';
import { implement, type Implementation } from '@ct/service-kit';
import type { EssaysDeps } from '../deps.ts';
import type { EssaysRepository } from '../repositories/essays.ts';
import { COMMON_APP, UNIVERSITY_OF_CALIFORNIA } from '../seed.ts';

const PLATFORMS = { commonApp: COMMON_APP, universityOfCalifornia: UNIVERSITY_OF_CALIFORNIA } as const;

/** The ingestion worker's reports on essays work: example essays and the platforms' prompts. */
export function internalRoutes({ repo }: EssaysDeps): Implementation[] {
  const view = (r: Awaited<ReturnType<EssaysRepository['findRequest']>>) =>
    r && { state: r.state, promptText: r.promptText, wordLimit: r.wordLimit };
  return [
    implement(internalUpdateExamples, async (request) => {
      const { promptKey, state, reason } = request.body;
      const current = await repo.findRequest(promptKey);
      // Only a request still waiting or running changes: a late report never reopens a finished one.
      const pending = current?.state === 'queued' || current?.state === 'running';
      if (!pending) return { proceed: false, request: view(current) };
      await repo.markRequest(promptKey, state, reason ?? null);
      return { proceed: state === 'running', request: view(await repo.findRequest(promptKey)) };
    }),

    implement(internalCompleteExamples, async (request) => {
      const { promptKey, essays, addedBy } = request.body;
      await repo.completeRequest(promptKey, essays, addedBy);
      return { ok: true as const };
    }),

    implement(internalSavePlatformPrompts, async (request) => {
      const { platform, prompts } = request.body;
      await repo.saveCollegePrompts({ name: PLATFORMS[platform], kind: 'application' }, prompts);
      return { ok: true as const };
    }),
  ];
}
