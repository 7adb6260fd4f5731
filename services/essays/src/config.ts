import Type, { type Static } from 'typebox';
import { withBase } from '@ct/service-kit';

/** The essays service's own settings. The API key is a secret: never logged, only sent to its API. */
const OWN = {
  /** AI provider for example essays; without a key, only examples added by admins are shown. */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://.+' })),
  OPENAI_MODEL: Type.String({ default: 'gpt-4.1-mini', minLength: 1 }),
  OPENAI_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 120_000 }),
  /**
   * An operator's file of the Common App and UC prompts (JSON; see seed.ts). Without it the AI provider
   * gathers them from the platforms' pages; with neither they are not listed (none are shipped).
   */
  ESSAY_PROMPTS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** Example essays written at the same time by one process. */
  ESSAY_EXAMPLES_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 20, default: 2 }),
  /** How often requests still waiting for examples get a job the queue lost (0: only at start). */
  ESSAY_EXAMPLES_SWEEP_MS: Type.Integer({ minimum: 0, default: 60_000 }),
};

export const EssaysConfig = withBase(OWN);
export type EssaysConfig = Static<typeof EssaysConfig>;
