import { createHash } from 'node:crypto';
import { Agent, fetch } from 'undici';
import webpush from 'web-push';
import type { PushSubscriptionRow } from '../repositories/reminders.ts';
import { publicOnlyLookup, refusedEndpoint, type PushServiceRule } from './push-endpoint.ts';
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

/**
 * Sends one push message; answers the push service's status (0 when it could not be reached, `REFUSED`
 * when the endpoint is not a push service's and nothing was sent).
 */
export type PushSender = (sub: PushSubscriptionRow, payload: ReminderPayload) => Promise<number>;

/** The sender's answer for an endpoint the push-service rule refuses: the subscription is dropped. */
export const REFUSED = -1;

/** How long a VAPID signature is valid (push services accept at most 24 hours). */
const VAPID_LIFE_S = 12 * 3600;

/** How long a push service keeps a reminder for a device that is off: a day. */
const TTL_SECONDS = 24 * 3600;
/** A push service answers in well under a second; one that does not is given up on (issue 50.6). */
export const PUSH_TIMEOUT_MS = 5_000;
/** Tries again after a 429 or 5xx (issue 45), waiting what Retry-After says, at most this long. */
const PUSH_RETRIES = 2;
const MAX_RETRY_WAIT_MS = 30_000;

/** Retry-After in ms: seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The Web Push sender: web-push encrypts the payload for the device (RFC 8291, aes128gcm) and signs the
 * request with our VAPID keys. The request goes only to an endpoint the push-service rule admits, checked
 * again here (a row stored before the rule, or a host an operator has since removed), over connections
 * whose DNS answers must be public addresses, and a redirect is never followed (issue 50.1).
 */
export function webPushSender(
  keys: VapidKeys,
  rule: PushServiceRule,
  timeoutMs = PUSH_TIMEOUT_MS,
): PushSender {
  const dispatcher = new Agent({ connect: { lookup: publicOnlyLookup(rule) } });
  // The VAPID signature (a JWT for the push service's origin) is made once per origin and kept for
  // hours, not made for every message: signing was half of a message's CPU (issue 45, the peak pass).
  const vapid = new Map<string, { headers: Record<string, string>; until: number }>();
  const vapidHeaders = (endpoint: string) => {
    const origin = new URL(endpoint).origin;
    const now = Date.now();
    let v = vapid.get(origin);
    if (!v || v.until < now) {
      const expires = Math.floor(now / 1000) + VAPID_LIFE_S;
      const headers = webpush.getVapidHeaders(
        origin,
        keys.subject,
        keys.publicKey,
        keys.privateKey,
        'aes128gcm',
        expires,
      ) as unknown as Record<string, string>;
      // Used until an hour before it expires.
      v = { headers, until: (expires - 3600) * 1000 };
      vapid.set(origin, v);
    }
    return v.headers;
  };
  return async (sub, payload) => {
    if (refusedEndpoint(sub.endpoint, rule)) return REFUSED;
    const req = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(payload),
      {
        headers: vapidHeaders(sub.endpoint),
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
        // The same reminder sent again (its replica died with the push in flight, ADR 0106) replaces the
        // first at the push service while undelivered, as the notification's tag does on the phone.
        topic: pushTopic(payload.tag),
      },
    );
    const body = new Uint8Array(req.body);
    for (let attempt = 0; ; attempt++) {
      let res;
      try {
        res = await fetch(req.endpoint, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body,
          redirect: 'manual',
          dispatcher,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.arrayBuffer().catch(() => {});
      } catch {
        return 0;
      }
      // A push service that is busy (429) or failing (5xx) says when to come back: within reason, we do.
      if ((res.status === 429 || res.status >= 500) && attempt < PUSH_RETRIES) {
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? 1_000 * 2 ** attempt;
        if (wait <= MAX_RETRY_WAIT_MS) {
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
      }
      return res.status;
    }
  };
}

/** A reminder's Web Push Topic (RFC 8030 §5.4: at most 32 URL-safe base64 characters), from its tag. */
export const pushTopic = (tag: string) => createHash('sha256').update(tag).digest('base64url').slice(0, 32);
