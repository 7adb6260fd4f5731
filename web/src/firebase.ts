import type { PublicConfig } from '@ct/contracts';
import { initializeApp } from 'firebase/app';
import { connectAuthEmulator, getAuth, type Auth } from 'firebase/auth';

let auth: Auth | null = null;

/** Initialises the Firebase web SDK from the gateway's public config; connects to the emulator when set. */
export function initFirebase(config: PublicConfig): Auth {
  if (auth) return auth;
  const app = initializeApp({
    apiKey: config.firebase.apiKey,
    authDomain: config.firebase.authDomain,
    projectId: config.firebase.projectId,
  });
  auth = getAuth(app);
  if (config.firebase.emulatorUrl)
    connectAuthEmulator(auth, config.firebase.emulatorUrl, { disableWarnings: true });
  return auth;
}

export function firebaseAuth(): Auth {
  if (!auth) throw new Error('Firebase is not initialised');
  return auth;
}
