import Type, { type Static } from 'typebox';
import { ApiError, Ok } from '../common.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';

// ---- beyond the spec: deadline reminders pushed to the student's devices (issue 32) ----

/** Days before a deadline a reminder may be sent; 0 is the morning of. */
export const REMINDER_LEAD_DAYS = [30, 21, 14, 10, 7, 5, 3, 2, 1, 0] as const;
/** 14, 7, 2 and 1 days before, and the morning of. */
export const DEFAULT_LEAD_DAYS = [14, 7, 2, 1, 0];

const LeadDays = Type.Array(Type.Integer({ minimum: 0, maximum: 30 }), { maxItems: 10, uniqueItems: true });

/** A browser's push subscription (PushSubscription.toJSON()). */
export const PushSubscriptionInput = Type.Object(
  {
    endpoint: Type.String({ minLength: 10, maxLength: 1000, pattern: '^https?://' }),
    keys: Type.Object(
      {
        p256dh: Type.String({ minLength: 80, maxLength: 100, pattern: '^[A-Za-z0-9_-]+={0,2}$' }),
        auth: Type.String({ minLength: 16, maxLength: 32, pattern: '^[A-Za-z0-9_-]+={0,2}$' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ReminderSettings = Type.Object({
  /** The server's VAPID public key, for PushManager.subscribe. */
  publicKey: Type.String(),
  leadDays: LeadDays,
  paused: Type.Boolean(),
  /** How many of the student's devices receive reminders. */
  devices: Type.Integer(),
});
export type ReminderSettings = Static<typeof ReminderSettings>;

export const getReminderSettings = defineRoute({
  method: 'GET',
  path: '/get-reminder-settings',
  service: 'user-data',
  access: 'user',
  summary: "The student's push reminder settings and the key a device subscribes with",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: ReminderSettings }) } },
});

export const subscribeReminders = defineRoute({
  method: 'POST',
  path: '/subscribe-reminders',
  service: 'user-data',
  access: 'user',
  summary: 'Turn deadline reminders on for this device (its push subscription)',
  schema: {
    body: Type.Object({ ...UserQ, subscription: PushSubscriptionInput }, { additionalProperties: false }),
    response: { 200: Ok({ data: ReminderSettings }) },
  },
});

export const unsubscribeReminders = defineRoute({
  method: 'POST',
  path: '/unsubscribe-reminders',
  service: 'user-data',
  access: 'user',
  summary: 'Turn deadline reminders off for this device',
  schema: {
    body: Type.Object(
      { ...UserQ, endpoint: Type.String({ minLength: 10, maxLength: 1000 }) },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: ReminderSettings }) },
  },
});

export const updateReminderSettings = defineRoute({
  method: 'POST',
  path: '/update-reminder-settings',
  service: 'user-data',
  access: 'user',
  summary: 'Choose the lead times of deadline reminders, or pause them',
  schema: {
    body: Type.Object(
      { ...UserQ, leadDays: Type.Optional(LeadDays), paused: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: ReminderSettings }), 400: ApiError },
  },
});
