import { getDigestSettings, stopDigest, updateDigestSettings, type DigestSettings } from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { digestZone } from '../reminders/send-digests.ts';

/** The weekly e-mail: offered when the server has a mail relay, turned on and off by the student. */
export function digestRoutes(deps: Deps): Implementation[] {
  const available = !!deps.ctx.config.SMTP_URL;
  async function settingsOf(uid: string): Promise<DigestSettings> {
    const s = await deps.digests.settings(uid);
    const on = available && !!s?.enabled;
    return { available, enabled: on, email: on ? s!.email : null, zone: s?.zone ?? null };
  }
  return [
    implement(getDigestSettings, async (request) => {
      const uid = requireUser(request);
      return { success: true, message: UD_MSG.digestSettings, data: await settingsOf(uid) };
    }),
    implement(updateDigestSettings, async (request) => {
      const uid = requireUser(request);
      const { enabled, zone } = request.body;
      if (!enabled) {
        await deps.digests.disable(uid);
        return { success: true, message: UD_MSG.digestOff, data: await settingsOf(uid) };
      }
      if (!available) throw new AppError('CONFLICT', UD_MSG.digestUnavailable);
      // It goes only to the address the verified token carries, never to one the client names.
      const email = request.auth?.emailVerified ? request.auth.email : null;
      if (!email) throw new AppError('VALIDATION_ERROR', UD_MSG.digestNoEmail);
      await deps.digests.enable(uid, email, digestZone(zone).tzid);
      return { success: true, message: UD_MSG.digestOn(email), data: await settingsOf(uid) };
    }),
    implement(stopDigest, async (request) => {
      if (!(await deps.digests.stopByToken(request.body.token)))
        throw new AppError('NOT_FOUND', UD_MSG.digestStopUnknown);
      return { success: true, message: UD_MSG.digestStopped };
    }),
  ];
}
