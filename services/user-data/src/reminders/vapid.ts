import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID keys reminders are signed with: from config; otherwise generated once and kept in the data
 * folder (the embedded run works with no setting), or for an in-memory run, for the life of the process.
 */
export function vapidKeys(config: {
  VAPID_PUBLIC_KEY?: string | undefined;
  VAPID_PRIVATE_KEY?: string | undefined;
  VAPID_SUBJECT: string;
  DATA_DIR: string;
}): VapidKeys {
  const subject = config.VAPID_SUBJECT;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  if (config.DATA_DIR.startsWith('memory://')) return { ...webpush.generateVAPIDKeys(), subject };
  const file = path.join(config.DATA_DIR, 'vapid-keys.json');
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (kept.publicKey && kept.privateKey)
      return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
  } catch {
    // none kept yet
  }
  const keys = webpush.generateVAPIDKeys();
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return { ...keys, subject };
}
