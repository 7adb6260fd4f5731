// What a reminder run needs outside the product: a local Web Push service stand-in that counts every
// message it receives, a device's keys, and the reminder index seeded for many students at once as the
// refresh leaves it. Shared by `npm run bench -- reminders` and `npm run load -- --peak`.
import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '@ct/store';

export interface PushStandIn {
  /** Its origin, for PUSH_SERVICE_HOSTS and the devices' endpoints. */
  url: string;
  /** Messages received per endpoint path (`/push/<id>`): a reminder sent twice counts 2. */
  received: Map<string, number>;
  /** When each endpoint path first received a message (ms since the epoch). */
  firstAt: Map<string, number>;
  /** Endpoint paths that received a message again under another Topic (or none): a repeat a phone shows. */
  shownAgain: Set<string>;
  close(): Promise<void>;
}

/** A Web Push service stand-in answering every message 201 after `delayMs`, on `port` (0: any). */
export async function startPushStandIn(delayMs: number, port = 0): Promise<PushStandIn> {
  const received = new Map<string, number>();
  const firstAt = new Map<string, number>();
  const topics = new Map<string, string>();
  const shownAgain = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = req.url ?? '';
      received.set(key, (received.get(key) ?? 0) + 1);
      if (!firstAt.has(key)) firstAt.set(key, Date.now());
      // RFC 8030 §5.4: a message with the Topic of one before it replaces it; without one, it is another.
      const topic = typeof req.headers.topic === 'string' ? req.headers.topic : '';
      if (topics.has(key) && (!topic || topics.get(key) !== topic)) shownAgain.add(key);
      topics.set(key, topic);
      setTimeout(() => res.writeHead(201).end(), delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    firstAt,
    shownAgain,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A browser push subscription's keys (P-256 public key and auth secret), as a device sends them. */
export function deviceKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** One reminder index row (user_data.reminder_due) without its student and moment. */
export interface ReminderRow {
  deadline_key: string;
  lead_days: number;
  payload: unknown;
}

/**
 * Students `<prefix>1..<prefix>n`, each with one device at `<pushUrl>/push/<prefix><i>` and `row` due at
 * `dueAt`: what the service would have written one request at a time. One transaction with the triggers
 * off: each row's deleted-account check takes an advisory lock, and 100,000 of them in one transaction
 * overflow Postgres's lock table; and the rows are the index as the refresh leaves it, not stale marks.
 */
export async function seedDueReminders(
  db: Db,
  opts: {
    pushUrl: string;
    device: { p256dh: string; auth: string };
    n: number;
    prefix: string;
    row: ReminderRow;
    dueAt: Date | string;
  },
): Promise<void> {
  const { pushUrl, device, n, prefix, row, dueAt } = opts;
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    await tx.query(
      `INSERT INTO user_data.push_subscription (endpoint, user_id, p256dh, auth)
       SELECT $1 || '/push/' || $5 || i, $5 || i, $2, $3 FROM generate_series(1, $4::int) i`,
      [pushUrl, device.p256dh, device.auth, n, prefix],
    );
    await tx.query(
      `INSERT INTO user_data.reminder_due (user_id, deadline_key, lead_days, due_at, payload)
       SELECT $6 || i, $1, $2, $3, $4::jsonb FROM generate_series(1, $5::int) i`,
      [row.deadline_key, row.lead_days, dueAt, JSON.stringify(row.payload), n, prefix],
    );
  });
  await db.exec('ANALYZE user_data.reminder_due; ANALYZE user_data.push_subscription');
}
