import {
  browserPopupRedirectResolver,
  GoogleAuthProvider,
  signInWithCredential,
  signInWithPopup,
  type Auth,
  type User,
} from 'firebase/auth';

/** Google sign-in with the provider's popup; logs the failure and rethrows it (spec section 7). */
export async function signInWithGooglePopup(auth: Auth): Promise<User> {
  try {
    const provider = new GoogleAuthProvider();
    provider.setCustomParameters({ prompt: 'select_account' });
    return (await signInWithPopup(auth, provider, browserPopupRedirectResolver)).user;
  } catch (err) {
    console.error('Google sign-in failed:', err instanceof Error ? err.message : err);
    throw err;
  }
}

/**
 * Emulator only: the popup needs Google's script, which an offline emulator run cannot load, so a local
 * test Google account signs in with an unsigned credential that only the Auth emulator accepts.
 */
export async function signInWithEmulatorGoogleAccount(auth: Auth, email: string): Promise<User> {
  const address = email.trim().toLowerCase();
  const local = address.split('@')[0] ?? address;
  const name = local.replace(/[._-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  const credential = GoogleAuthProvider.credential(
    JSON.stringify({
      sub: `local-${address.replace(/[^a-z0-9]/g, '-')}`,
      email: address,
      email_verified: true,
      name,
    }),
  );
  return (await signInWithCredential(auth, credential)).user;
}
