// The verifier's cached path (what every request of a signed-in student takes) against the real Auth
// emulator: it answers what a full verification answers, refusals included, and never past the time a
// user's state may be trusted.
import { MSG } from '@ct/contracts';
import {
  createVerifiedUser,
  disableUser,
  emulatorHost,
  revokeTokens,
  signUp,
  signUpAnonymously,
  uniqueEmail,
} from '@ct/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { GATEWAY_MSG } from '../messages.ts';
import { TokenVerifier } from './verifier.ts';

const USER_CACHE_MS = 2000;
const verifier = new TokenVerifier({
  projectId: 'demo-college-tracker',
  emulatorHost: emulatorHost(),
  userCacheMs: USER_CACHE_MS,
});
afterAll(() => verifier.close());

const pastCacheTime = () => new Promise((r) => setTimeout(r, USER_CACHE_MS + 100));

describe('TokenVerifier.cached', () => {
  it('knows nothing of a token until it was verified, then answers the same identity', async () => {
    const user = await createVerifiedUser({ name: 'Cached' });
    expect(verifier.cached(user.idToken)).toBeUndefined();
    const verified = await verifier.verify(user.idToken);
    expect(verified).toMatchObject({ uid: user.uid, emailVerified: true });
    expect(verifier.cached(user.idToken)).toEqual(verified);
  });

  it('refuses from the cache what verification refused: unverified e-mail, guest sign-in', async () => {
    const unverified = await signUp(uniqueEmail('unverified'), 'Passw0rd!long', 'Unverified');
    expect(await verifier.verify(unverified.idToken)).toEqual({ error: MSG.emailNotVerified });
    expect(verifier.cached(unverified.idToken)).toEqual({ error: MSG.emailNotVerified });

    const guest = await signUpAnonymously();
    expect(await verifier.verify(guest.idToken)).toEqual({ error: MSG.guestSignInRefused });
    expect(verifier.cached(guest.idToken)).toEqual({ error: MSG.guestSignInRefused });
  });

  it('stops answering once the user state is older than allowed; a disabled account is then refused', async () => {
    const user = await createVerifiedUser({ name: 'Disabled later' });
    expect(await verifier.verify(user.idToken)).toMatchObject({ uid: user.uid });
    await disableUser(user.uid);
    await pastCacheTime();
    expect(verifier.cached(user.idToken)).toBeUndefined();
    expect(await verifier.verify(user.idToken)).toEqual({ error: GATEWAY_MSG.accountDisabled });
    expect(verifier.cached(user.idToken)).toEqual({ error: GATEWAY_MSG.accountDisabled });
  });

  it('looks a user up once however many requests wait for it, and ahead of time when the cache answers', async () => {
    const user = await createVerifiedUser({ name: 'Busy' });
    expect(await verifier.verify(user.idToken)).toMatchObject({ uid: user.uid });
    const auth = (verifier as unknown as { auth: { getUser: (uid: string) => Promise<unknown> } }).auth;
    const getUser = auth.getUser.bind(auth);
    let lookups = 0;
    auth.getUser = (uid) => {
      lookups++;
      return getUser(uid);
    };
    try {
      // Past the time the state may be trusted: ten requests at once, one lookup, all answered.
      await pastCacheTime();
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(user.idToken)));
      expect(answers.every((a) => 'uid' in a! && a.uid === user.uid)).toBe(true);
      expect(lookups).toBe(1);
      // Three quarters of the way: the cache still answers, and one lookup starts in the background.
      await new Promise((r) => setTimeout(r, started + USER_CACHE_MS * 0.8 - Date.now()));
      for (let i = 0; i < 10; i++) expect(verifier.cached(user.idToken)).toMatchObject({ uid: user.uid });
      expect(lookups).toBe(2);
    } finally {
      auth.getUser = getUser;
    }
  });

  it('verifies a new token once however many requests bring it at once', async () => {
    const user = await createVerifiedUser({ name: 'First requests' });
    const auth = (
      verifier as unknown as { auth: { verifyIdToken: (t: string, c?: boolean) => Promise<unknown> } }
    ).auth;
    const verifyIdToken = auth.verifyIdToken.bind(auth);
    let verifications = 0;
    auth.verifyIdToken = (t, c) => {
      verifications++;
      return verifyIdToken(t, c);
    };
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(user.idToken)));
      expect(answers.every((a) => 'uid' in a! && a.uid === user.uid)).toBe(true);
      expect(verifications).toBe(1);
      // A token that fails verification is refused to every request that shared it, and not kept.
      const bad = await Promise.all(Array.from({ length: 3 }, () => verifier.verify('not.a.token')));
      expect(bad).toEqual(Array.from({ length: 3 }, () => ({ error: GATEWAY_MSG.badToken })));
      expect(verifications).toBe(2);
      expect(verifier.cached('not.a.token')).toBeUndefined();
    } finally {
      auth.verifyIdToken = verifyIdToken;
    }
  });

  it('a revoked session is refused, and its token forgotten', async () => {
    const user = await createVerifiedUser({ name: 'Revoked later' });
    expect(await verifier.verify(user.idToken)).toMatchObject({ uid: user.uid });
    await revokeTokens(user.uid);
    // validSince is one second ahead (what revokeRefreshTokens records): past it, and past the cache time.
    await pastCacheTime();
    expect(verifier.cached(user.idToken)).toBeUndefined();
    expect(await verifier.verify(user.idToken)).toEqual({ error: GATEWAY_MSG.sessionRevoked });
    expect(verifier.cached(user.idToken)).toBeUndefined();
  });
});
