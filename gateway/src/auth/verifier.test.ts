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

const USER_CACHE_MS = 400;
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

  it('a revoked session is refused, and its token forgotten', async () => {
    const user = await createVerifiedUser({ name: 'Revoked later' });
    expect(await verifier.verify(user.idToken)).toMatchObject({ uid: user.uid });
    await revokeTokens(user.uid);
    // validSince is one second ahead (what revokeRefreshTokens records); wait until it is in the past.
    await new Promise((r) => setTimeout(r, 1100));
    expect(verifier.cached(user.idToken)).toBeUndefined();
    expect(await verifier.verify(user.idToken)).toEqual({ error: GATEWAY_MSG.sessionRevoked });
    expect(verifier.cached(user.idToken)).toBeUndefined();
  });
});
