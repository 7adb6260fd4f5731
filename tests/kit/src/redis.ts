import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './db.ts';

/** Deletes every key under a test prefix. */
export async function clearRedisPrefix(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
