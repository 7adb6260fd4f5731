/**
 * Tells the app's other tabs at once that a student signed out here (issue 50.8). The identity provider
 * tells them too, but only when its own storage check comes round; meanwhile another tab would still show
 * the student's data, keep saving it, and could send a write queued offline under whoever signs in next.
 */
const CHANNEL = 'college-ready:session';

interface SignedOut {
  type: 'signed-out';
  uid: string;
}

const open = (): BroadcastChannel | null =>
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);

/** Says to every other tab of this site that `uid` has signed out. */
export function announceSignOut(uid: string): void {
  const channel = open();
  if (!channel) return;
  channel.postMessage({ type: 'signed-out', uid } satisfies SignedOut);
  channel.close();
}

/** Calls `onSignOut` with the uid each time another tab says a student signed out; returns the stop. */
export function onSignOutElsewhere(onSignOut: (uid: string) => void): () => void {
  const channel = open();
  if (!channel) return () => {};
  channel.onmessage = (e: MessageEvent<SignedOut>) => {
    if (e.data?.type === 'signed-out' && typeof e.data.uid === 'string') onSignOut(e.data.uid);
  };
  return () => channel.close();
}

/**
 * What a student is asked before signing out with changes made offline still waiting: signing out forgets
 * them with everything else this device kept (issue 50.8), so it is their choice, not a silent loss.
 */
export const unsentAtSignOut = (n: number) =>
  `${n === 1 ? 'One change you made offline has' : `${n} changes you made offline have`} not reached the server yet. ` +
  'If you sign out now, it is lost. Sign out anyway?';
