import {
  DEFAULT_LEAD_DAYS,
  getReminderSettings,
  subscribeReminders,
  unsubscribeReminders,
  updateReminderSettings,
  type ReminderSettings,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { refusedEndpoint } from '../reminders/push-endpoint.ts';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';

/** The student's reminder settings, with the key a device subscribes with. */
async function settingsOf(deps: Deps, uid: string): Promise<ReminderSettings> {
  const [s, subs] = await Promise.all([deps.reminders.settings(uid), deps.reminders.subscriptions(uid)]);
  return {
    publicKey: deps.vapid.publicKey,
    leadDays: s?.lead_days ?? DEFAULT_LEAD_DAYS,
    paused: s?.paused ?? false,
    devices: subs.length,
  };
}

/** Deadline reminders pushed to the student's devices: turned on per device, lead times, pause. */
export function reminderRoutes(deps: Deps): Implementation[] {
  return [
    implement(getReminderSettings, async (request) => {
      const uid = requireUser(request);
      return { success: true, message: UD_MSG.reminderSettings, data: await settingsOf(deps, uid) };
    }),
    implement(subscribeReminders, async (request) => {
      const uid = requireUser(request);
      const { endpoint, keys } = request.body.subscription;
      const refused = refusedEndpoint(endpoint, deps.pushServices);
      if (refused) throw new AppError('VALIDATION_ERROR', refused);
      if (!(await deps.reminders.subscribe(uid, { endpoint, p256dh: keys.p256dh, auth: keys.auth }))) {
        throw new AppError('CONFLICT', UD_MSG.pushDeviceTaken);
      }
      return { success: true, message: UD_MSG.remindersOn, data: await settingsOf(deps, uid) };
    }),
    implement(unsubscribeReminders, async (request) => {
      const uid = requireUser(request);
      await deps.reminders.unsubscribe(uid, request.body.endpoint);
      return { success: true, message: UD_MSG.remindersOff, data: await settingsOf(deps, uid) };
    }),
    implement(updateReminderSettings, async (request) => {
      const uid = requireUser(request);
      const { leadDays, paused } = request.body;
      await deps.reminders.saveSettings(uid, {
        ...(leadDays ? { leadDays: [...leadDays].sort((a, b) => b - a) } : {}),
        ...(paused !== undefined ? { paused } : {}),
      });
      return { success: true, message: UD_MSG.reminderSettingsSaved, data: await settingsOf(deps, uid) };
    }),
  ];
}
