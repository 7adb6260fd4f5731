import Type, { type Static } from 'typebox';
import { withBase } from '@ct/service-kit';

/** The user-data service's own settings (the base variables come from service-kit). */
export const USER_DATA_SETTINGS = {
  /**
   * Tests only: the instant the service takes as "now" for deadlines (ISO 8601), so a test does not
   * depend on today's date. Ignored when NODE_ENV=production.
   */
  USER_DATA_CLOCK: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T', maxLength: 40 })),
  /**
   * The VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it) that signs deadline
   * reminders. Without it, the service generates a pair once and keeps it in DATA_DIR (vapid-keys.json):
   * enough for one process; several replicas must share a configured pair.
   */
  VAPID_PUBLIC_KEY: Type.Optional(Type.String({ minLength: 80 })),
  VAPID_PRIVATE_KEY: Type.Optional(Type.String({ minLength: 40 })),
  /**
   * Push services reminders may go through besides the known ones (FCM, Mozilla autopush, Apple, Windows),
   * comma-separated: `push.example.org` or `*.push.example.org` (https on 443, public addresses only), or
   * an exact origin such as `http://127.0.0.1:4100` (a local stand-in; admitted as written).
   */
  PUSH_SERVICE_HOSTS: Type.Optional(Type.String({ maxLength: 2000, pattern: '^[a-z0-9.:/*,\\[\\] -]*$' })),
  /** Who the push services may contact about our reminders (mailto: or https:). */
  VAPID_SUBJECT: Type.String({
    pattern: '^(mailto:|https://)',
    default: 'mailto:reminders@college-ready.app',
  }),
  /**
   * The mail relay of the weekly e-mail of deadlines (smtp:// or smtps://, with its user and password).
   * Without it no e-mail is sent and Profile does not offer it.
   */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://.+' })),
  /** Who the weekly e-mail comes from. */
  MAIL_FROM: Type.String({ minLength: 3, default: 'College Ready <deadlines@college-ready.app>' }),
  /**
   * Where students open the app (https://app.example.org): the links in the weekly e-mail. Without it,
   * http://localhost:PORT, right for the embedded run on one machine.
   */
  APP_URL: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
  /**
   * How often the reminder job looks for reminders and weekly e-mails due (0: never, for tests that run
   * it themselves).
   */
  REMINDER_EVERY_MS: Type.Integer({ minimum: 0, default: 15 * 60_000 }),
  // How long a reminder taken by a pass is held while it is pushed; a replica that dies mid-push gives its
  // reminders back when it runs out (past every push's timeouts and Retry-After waits).
  REMINDER_LEASE_MS: Type.Integer({ minimum: 1_000, default: 3 * 60_000 }),
};

export const UserDataConfig = withBase(USER_DATA_SETTINGS);
export type UserDataSettings = Static<typeof UserDataConfig>;
