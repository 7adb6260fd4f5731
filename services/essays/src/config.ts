import Type, { type Static } from 'typebox';
import { withBase } from '@ct/service-kit';

/**
 * The essays service's own settings. The ingestion worker calls the AI provider; this service only needs
 * to know whether one is configured (the API key is a secret: never logged, never sent anywhere).
 */
export const ESSAYS_SETTINGS = {
  /** AI provider for example essays; without a key, only examples added by admins are shown. */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * An operator's file of the Common App and UC prompts (JSON; see seed.ts). Without it the AI provider
   * gathers them from the platforms' pages; with neither they are not listed (none are shipped).
   */
  ESSAY_PROMPTS_FILE: Type.Optional(Type.String({ minLength: 1 })),
};

export const EssaysConfig = withBase(ESSAYS_SETTINGS);
export type EssaysConfig = Static<typeof EssaysConfig>;
