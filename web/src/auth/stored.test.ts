import { describe, expect, it } from 'vitest';
import { MIN_TOKEN_LIFE_MS, parseStoredUser } from './stored';

const NOW = Date.parse('2026-11-25T12:00:00Z');
/** What the Firebase SDK stores for a signed-in user (User.toJSON()). */
const record = (over: Record<string, unknown> = {}, sts: Record<string, unknown> = {}) => ({
  uid: 'u1',
  email: 'ada@example.com',
  emailVerified: true,
  displayName: 'Ada',
  isAnonymous: false,
  providerData: [{ providerId: 'password', uid: 'ada@example.com', email: 'ada@example.com' }],
  stsTokenManager: { accessToken: 'tok', refreshToken: 'ref', expirationTime: NOW + 30 * 60_000, ...sts },
  createdAt: '1',
  lastLoginAt: '2',
  apiKey: 'k',
  appName: '[DEFAULT]',
  ...over,
});

describe('the session this device stored', () => {
  it('gives the user and the token of a verified account whose token is good for a while', () => {
    const s = parseStoredUser(record(), NOW);
    expect(s).toEqual({
      user: {
        uid: 'u1',
        email: 'ada@example.com',
        displayName: 'Ada',
        photoURL: null,
        emailVerified: true,
        isAnonymous: false,
        providerData: [
          {
            providerId: 'password',
            uid: 'ada@example.com',
            displayName: null,
            email: 'ada@example.com',
            phoneNumber: null,
            photoURL: null,
          },
        ],
      },
      token: 'tok',
      expiresAt: NOW + 30 * 60_000,
      fresh: true,
    });
  });

  it('still names the student when the token is near its expiry or past it, but marks it not to be sent', () => {
    const fresh = (expirationTime: number) => parseStoredUser(record({}, { expirationTime }), NOW)?.fresh;
    expect(fresh(NOW + MIN_TOKEN_LIFE_MS)).toBe(false);
    expect(fresh(NOW - 1)).toBe(false);
    expect(fresh(NOW - 24 * 3_600_000)).toBe(false);
    expect(fresh(NOW + MIN_TOKEN_LIFE_MS + 1)).toBe(true);
    expect(parseStoredUser(record({}, { expirationTime: NOW - 1 }), NOW)?.user.uid).toBe('u1');
    expect(parseStoredUser(record({}, { expirationTime: 'soon' }), NOW)).toBeNull();
  });

  it('is not a signed-in student for a guest, an unverified password account or a malformed record', () => {
    expect(parseStoredUser(record({ isAnonymous: true }), NOW)).toBeNull();
    expect(parseStoredUser(record({ emailVerified: false }), NOW)).toBeNull();
    // A Google account counts without a verified e-mail flag, as for the SDK's user.
    const google = record({ emailVerified: false, providerData: [{ providerId: 'google.com', uid: 'g' }] });
    expect(parseStoredUser(google, NOW)?.user.uid).toBe('u1');
    for (const bad of [null, 'x', {}, record({ uid: '' }), record({}, { accessToken: 7 })])
      expect(parseStoredUser(bad, NOW)).toBeNull();
    expect(parseStoredUser(record({ stsTokenManager: undefined }), NOW)).toBeNull();
  });
});
