import webpush from 'web-push';
import type { PushSubscriptionRow } from '../repositories/reminders.ts';
import type { VapidKeys } from './vapid.ts';

/** What a device shows (web/sw/sw.ts reads it). */
export interface ReminderPayload {
  title: string;
  body: string;
  /** The page the notification opens: the college's checklist. */
  url: string;
  /** One notification per deadline and lead time: a repeat replaces, never stacks. */
  tag: string;
}

/** Sends one push message; answers the push service's status (0 when it could not be reached). */
export type PushSender = (sub: PushSubscriptionRow, payload: ReminderPayload) => Promise<number>;

/** How long a push service keeps a reminder for a device that is off: a day. */
const TTL_SECONDS = 24 * 3600;

/**
 * The Web Push sender: web-push encrypts the payload for the device (RFC 8291, aes128gcm) and signs the
 * request with our VAPID keys; the request goes out with fetch (any push service URL, http for a local one).
 */
export function webPushSender(keys: VapidKeys, timeoutMs = 10_000): PushSender {
  return async (sub, payload) => {
    const req = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      },
    );
    try {
      const res = await fetch(req.endpoint, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: new Uint8Array(req.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer().catch(() => {});
      return res.status;
    } catch {
      return 0;
    }
  };
}
