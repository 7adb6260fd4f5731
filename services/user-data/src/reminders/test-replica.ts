// For tests of the reminder and weekly e-mail jobs: the service's dependencies as one replica (or one
// restart) builds them, on a test's database, and one pass of the weekly e-mail through a relay.
import type { College } from '@ct/contracts';
import type { ServiceContext } from '@ct/service-kit';
import type { Db } from '@ct/store';
import type { FastifyBaseLogger } from 'fastify';
import type { UserDataSettings } from '../config.ts';
import { makeDeps, type Deps } from '../deps.ts';
import { sendDueDigests, smtpSender } from './send-digests.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;

/**
 * A replica's dependencies on `db`, with `config` over the defaults. A replica built here has no service
 * client: the colleges service's answers are `colleges`.
 */
export function jobReplica(db: Db, config: Partial<UserDataSettings>, colleges: College[]): Deps {
  const deps = makeDeps({
    service: 'user-data',
    config: {
      DATA_DIR: 'memory://',
      PORT: 0,
      VAPID_SUBJECT: 'mailto:reminders@college-ready.app',
      REMINDER_EVERY_MS: 0,
      REMINDER_LEASE_MS: 3 * 60_000,
      MAIL_FROM: 'College Ready <deadlines@college-ready.app>',
      ...config,
    } as UserDataSettings,
    db,
    log: silent,
  } as unknown as ServiceContext<UserDataSettings>);
  deps.fetchCollege = async (name) => colleges.find((c) => c.name === name) ?? null;
  return deps;
}

/** One pass of the weekly e-mail job of `deps`, through its SMTP_URL, at `now`. */
export async function runDigests(deps: Deps, now: Date) {
  const mail = smtpSender(deps.ctx.config.SMTP_URL!, deps.ctx.config.MAIL_FROM);
  try {
    return await sendDueDigests(deps, mail.send, now);
  } finally {
    mail.close();
  }
}
