import { fileURLToPath } from 'node:url';
import { CollegeIngestedEvent, CollegeRemovedEvent, LIMITS } from '@ct/contracts';
import { defineService } from '@ct/service-kit';
import { UserDataConfig } from './config.ts';
import { makeDeps } from './deps.ts';
import { onCollegeIngested, onCollegeRemoved } from './events.ts';
import { idempotentWrites } from './idempotent-writes.ts';
import { USER_DATA_TUNING } from './tuning.ts';
import { accountDataRoutes } from './routes/account.ts';
import { checklistRoutes } from './routes/checklist.ts';
import { collegeRoutes } from './routes/colleges.ts';
import { deadlineRoutes } from './routes/deadlines.ts';
import { digestRoutes } from './routes/digest.ts';
import { draftRoutes } from './routes/drafts.ts';
import { internalRoutes } from './routes/internal.ts';
import { noteRoutes } from './routes/notes.ts';
import { outcomeRoutes } from './routes/outcomes.ts';
import { profileRoutes } from './routes/profile.ts';
import { academicRoutes } from './routes/academic.ts';
import { recommenderRoutes } from './routes/recommenders.ts';
import { reminderRoutes } from './routes/reminders.ts';
import { webPushSender } from './reminders/push.ts';
import { sendDueDigests, smtpSender } from './reminders/send-digests.ts';
import { nonOverlapping, sendDueReminders } from './reminders/send-reminders.ts';
import { seasonRoutes } from './routes/season.ts';
import { shareRoutes } from './routes/share.ts';

/**
 * The user-data service: a student's colleges, checklists, notes, deadlines and calendar link, money
 * profile, essay drafts, recommenders, and the season (applications and aid offers).
 */
export default defineService({
  name: 'user-data',
  schema: 'user_data',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: UserDataConfig,
  deps: makeDeps,
  routes: (deps) => [
    ...collegeRoutes(deps),
    ...outcomeRoutes(deps),
    ...checklistRoutes(deps),
    ...noteRoutes(deps),
    ...deadlineRoutes(deps),
    ...profileRoutes(deps),
    ...academicRoutes(deps),
    ...draftRoutes(deps),
    ...recommenderRoutes(deps),
    ...seasonRoutes(deps),
    ...shareRoutes(deps),
    ...reminderRoutes(deps),
    ...digestRoutes(deps),
    ...accountDataRoutes(deps),
    ...internalRoutes(deps),
  ],
  async plugin(scope, deps) {
    idempotentWrites(scope, deps.idempotency);
  },
  async start(deps) {
    const { ctx } = deps;
    const consumer = ctx.bus.subscribe('user-data', {
      [CollegeIngestedEvent.name]: onCollegeIngested(deps),
      [CollegeRemovedEvent.name]: onCollegeRemoved(deps),
    });
    ctx.onClose(() => consumer.close());
    // Removed colleges' checklists are kept for Undo for 30 days, then forgotten: at start and every hour.
    // So are admins' reads of students' notes past their keep time.
    const { colleges, noteReads } = deps;
    const purge = async () => {
      try {
        const n = await colleges.purgeRemoved(LIMITS.removedCollegeKeepDays);
        if (n) ctx.log.info({ purged: n }, 'removed colleges past their keep time forgotten');
        await deps.idempotency.purge(USER_DATA_TUNING.writeIdKeepDays);
      } catch (err) {
        ctx.log.warn({ err }, 'purge of removed colleges failed; retried at the next interval');
      }
      try {
        const n = await noteReads.purge(LIMITS.noteReadKeepDays);
        if (n) ctx.log.info({ purged: n }, 'note reads past their keep time forgotten');
      } catch (err) {
        ctx.log.warn({ err }, 'purge of note reads failed; retried at the next interval');
      }
    };
    await purge();
    const timer = setInterval(() => void purge(), USER_DATA_TUNING.removedPurgeEveryMs);
    timer.unref();
    ctx.onClose(() => clearInterval(timer));
    // Deadline reminders and the weekly e-mail: each pass sends what has come due, once (rows claim them
    // across replicas).
    const every = ctx.config.REMINDER_EVERY_MS;
    if (every > 0) {
      const send = webPushSender(deps.vapid, deps.pushServices);
      const mail = ctx.config.SMTP_URL ? smtpSender(ctx.config.SMTP_URL, ctx.config.MAIL_FROM) : null;
      if (mail) ctx.onClose(() => mail.close());
      const remind = nonOverlapping(async () => {
        try {
          const r = await sendDueReminders(deps, send);
          if (r.sent || r.dropped) ctx.log.info(r, 'deadline reminders sent');
        } catch (err) {
          ctx.log.warn({ err }, 'reminder pass failed; retried at the next interval');
        }
        if (!mail) return;
        try {
          const r = await sendDueDigests(deps, mail.send);
          if (r.sent || r.failed) ctx.log.info(r, 'weekly e-mails sent');
        } catch (err) {
          ctx.log.warn({ err }, 'weekly e-mail pass failed; retried at the next interval');
        }
      });
      const reminderTimer = setInterval(() => void remind(), every);
      reminderTimer.unref();
      ctx.onClose(() => clearInterval(reminderTimer));
    }
  },
});
