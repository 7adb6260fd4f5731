// The Firebase SDK is a chunk of its own, imported dynamically (auth/session.tsx, auth/actions.ts): when
// nobody is signed in on the device it loads only with a page that needs it (the login form); a
// returning student's pages start from the session stored on the device and load it after the page has
// loaded (docs/adr/0091).
import type { PublicConfig } from '@ct/contracts';
import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  browserSessionPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  type Auth,
} from 'firebase/auth';
import { authStarted } from './auth/sdk-started';
import { appConfig } from './config';

export { onIdTokenChanged, signOut } from 'firebase/auth';

let auth: Auth | null = null;

/** Initialises the Firebase web SDK from the gateway's public config; connects to the emulator when set. */
export function initFirebase(config: PublicConfig): Auth {
  if (auth) return auth;
  const app = initializeApp({
    apiKey: config.firebase.apiKey,
    authDomain: config.firebase.authDomain,
    projectId: config.firebase.projectId,
  });
  // getAuth's persistence, without its pop-up resolver: that one loads Google's iframe script on every
  // page of a phone. The two pop-up calls (Google sign-in, re-authentication) pass it themselves.
  auth = initializeAuth(app, {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
  });
  if (config.firebase.emulatorUrl)
    connectAuthEmulator(auth, config.firebase.emulatorUrl, { disableWarnings: true });
  authStarted();
  return auth;
}

/** The app's Auth instance, started from the app's configuration the first time it is asked for. */
export function firebaseAuth(): Auth {
  return auth ?? initFirebase(appConfig());
}
