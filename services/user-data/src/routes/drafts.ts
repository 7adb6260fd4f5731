import {
  countWords,
  essayPromptKey,
  getEssayDrafts,
  getEssayDraftVersions,
  INPUT_MSG,
  saveEssayDraft,
  LIMITS,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentDraft, presentDraftVersion } from '../presenters.ts';

/** The student's essay drafts: one per prompt text, autosaved, with earlier versions kept. */
export function draftRoutes({ drafts }: Deps): Implementation[] {
  return [
    implement(getEssayDrafts, async (request) => {
      const uid = requireUser(request);
      const list = await drafts.listDrafts(uid);
      return { success: true, message: UD_MSG.draftsFound, drafts: list.map(presentDraft) };
    }),

    implement(saveEssayDraft, async (request) => {
      const uid = requireUser(request);
      const b = request.body;
      const prompt = b.prompt.trim();
      const promptKey = essayPromptKey(prompt);
      // A prompt with no words of its own cannot be told apart from another: refused.
      if (!promptKey) throw new AppError('VALIDATION_ERROR', INPUT_MSG.promptWithoutWords);
      const saved = await drafts.saveDraft(
        uid,
        {
          promptKey,
          prompt,
          body: b.body,
          wordCount: countWords(b.body),
          baseRevision: b.baseRevision ?? 0,
          keepVersion: b.keepVersion ?? false,
        },
        LIMITS,
      );
      if (saved === 'conflict') throw new AppError('CONFLICT', UD_MSG.draftConflict);
      if (saved === 'full') throw new AppError('LIMIT_REACHED', UD_MSG.tooManyDrafts);
      return { success: true, message: UD_MSG.draftSaved, data: presentDraft(saved) };
    }),

    implement(getEssayDraftVersions, async (request) => {
      const uid = requireUser(request);
      const versions = await drafts.listVersions(uid, request.query.draftId);
      if (!versions) throw new AppError('NOT_FOUND', UD_MSG.draftNotFound);
      return { success: true, message: UD_MSG.versionsFound, versions: versions.map(presentDraftVersion) };
    }),
  ];
}
