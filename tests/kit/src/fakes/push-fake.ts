import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message the fake push service received and decrypted with the device's keys. */
export interface ReceivedPush {
  device: string;
  /** The decrypted payload, parsed as JSON. */
  payload: Record<string, unknown>;
  /** The raw encrypted body (what a service worker would be handed after decryption: `payload`). */
  headers: http.IncomingHttpHeaders;
}

export interface FakePushService {
  url: string;
  /** A new device: its subscription (endpoint and keys) as the browser's PushSubscription.toJSON() gives it. */
  device(name: string): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The push service forgets a device: it answers 410 Gone from now on. */
  expire(name: string): void;
  received: ReceivedPush[];
  close(): Promise<void>;
}

const b64url = (b: Buffer) => b.toString('base64url');

/**
 * Decrypts an RFC 8291 (aes128gcm, RFC 8188) Web Push body with the device's private key and auth secret,
 * as a browser's push service client does; throws when the body was not encrypted for this device.
 */
export function decryptPush(body: Buffer, ecdh: crypto.ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const serverPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (ciphertext.length > rs) throw new Error('one record expected');
  const shared = ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  );
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02, then zero padding.
  const end = padded.lastIndexOf(2);
  if (end < 0) throw new Error('no record delimiter');
  return padded.subarray(0, end);
}

/**
 * A local HTTP server standing in for a browser vendor's push service: devices subscribe with keys it
 * generates; a message is accepted (201) only with a VAPID Authorization header and a body it can decrypt
 * with the device's keys, and is recorded decrypted. An expired device answers 410.
 */
export async function startFakePushService(): Promise<FakePushService> {
  const devices = new Map<string, { ecdh: crypto.ECDH; auth: Buffer; expired: boolean }>();
  const received: ReceivedPush[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const name = decodeURIComponent((req.url ?? '').replace(/^\/push\//, ''));
      const device = devices.get(name);
      if (!device || device.expired) {
        res.writeHead(device ? 410 : 404).end();
        return;
      }
      const auth = String(req.headers.authorization ?? '');
      if (req.method !== 'POST' || !/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/.test(auth)) {
        res.writeHead(401).end();
        return;
      }
      if (req.headers['content-encoding'] !== 'aes128gcm' || !req.headers.ttl) {
        res.writeHead(400).end();
        return;
      }
      try {
        const plain = decryptPush(Buffer.concat(chunks), device.ecdh, device.auth);
        received.push({
          device: name,
          payload: JSON.parse(plain.toString('utf8')) as Record<string, unknown>,
          headers: req.headers,
        });
        res.writeHead(201).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    device(name) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      devices.set(name, { ecdh, auth, expired: false });
      return {
        endpoint: `${url}/push/${encodeURIComponent(name)}`,
        keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
      };
    },
    expire(name) {
      const d = devices.get(name);
      if (d) d.expired = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
