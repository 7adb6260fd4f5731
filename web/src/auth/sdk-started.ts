// When nobody is signed in on this device, the session (auth/session.tsx) does not load the Firebase SDK:
// a page that needs it (the login form) loads it itself, and the sign-in made there must still reach the
// session. firebase.ts says here when Auth starts; this module is tiny so the entry carries no SDK.

let started = false;
const waiting = new Set<() => void>();

/** Called by firebase.ts once Auth has been started. */
export function authStarted(): void {
  started = true;
  for (const fn of waiting) fn();
  waiting.clear();
}

/** Runs `fn` once Auth has started (at once if it has). Returns the cancel. */
export function whenAuthStarts(fn: () => void): () => void {
  if (started) {
    fn();
    return () => {};
  }
  waiting.add(fn);
  return () => waiting.delete(fn);
}
