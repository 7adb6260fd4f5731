import Type from 'typebox';
import { withBase } from '@ct/service-kit';

/** The user-data service's own settings (the base variables come from service-kit). */
export const UserDataConfig = withBase({
  /**
   * Tests only: the instant the service takes as "now" for deadlines (ISO 8601), so a test does not
   * depend on today's date. Ignored when NODE_ENV=production.
   */
  USER_DATA_CLOCK: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T', maxLength: 40 })),
});
