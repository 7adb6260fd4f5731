import {
  normaliseCollegeName,
  type College,
  type CollegeIngestedEvent as CollegeIngestedPayload,
} from '@ct/contracts';
import { createHash } from 'node:crypto';

/** The college.ingested event of a stored college, and its id (the same content is the same event). */
export function ingestedEvent(doc: College): { payload: CollegeIngestedPayload; eventId: string } {
  const payload: CollegeIngestedPayload = {
    name: doc.name,
    scorecardId: doc.scorecardId,
    aliases: doc.aliases,
    deadlines: doc.info.deadlines,
    essayPrompts: doc.info.essayPrompts,
    ...(doc.info.essayPromptMeta ? { essayPromptMeta: doc.info.essayPromptMeta } : {}),
    ingestedAt: new Date().toISOString(),
  };
  const { ingestedAt: _at, ...content } = payload;
  const hash = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 24);
  return { payload, eventId: `${normaliseCollegeName(doc.name)}.${hash}` };
}
