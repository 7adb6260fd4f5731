import { MSG } from '@ct/contracts/messages';
import { useId, useState, type FormEvent } from 'react';
import { firebaseAuth } from '../../firebase';
import { signInWithEmulatorGoogleAccount } from './googleSignIn';

/**
 * Shown only when the Auth emulator stands in for Google's servers: the Google popup cannot load offline,
 * so a local test Google account can sign in instead. Never rendered with real Firebase.
 */
export function EmulatorGoogleAccount({
  onDone,
  onError,
}: {
  onDone: () => void;
  onError: (message: string) => void;
}) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState('google.student@example.com');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await signInWithEmulatorGoogleAccount(firebaseAuth(), address);
      onDone();
    } catch (err) {
      console.error('Local test Google sign-in failed:', err instanceof Error ? err.message : err);
      onError(MSG.googleSignInError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="emulator-account" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="emulator-title">
        <button
          type="button"
          className="link"
          aria-expanded={open}
          aria-controls={`${ids}-body`}
          onClick={() => setOpen((o) => !o)}
        >
          Local test account (emulator only)
        </button>
      </h2>
      {open ? (
        <div id={`${ids}-body`}>
          <p className="muted">
            This site is running against the local Firebase Auth emulator, which cannot open Google&apos;s
            sign-in window offline. Sign in as a local test Google account instead. This option never appears
            on the real site.
          </p>
          <form onSubmit={submit} aria-label="Local test Google account">
            <div className="field">
              <label htmlFor={`${ids}-address`}>Test Google address</label>
              <input
                id={`${ids}-address`}
                type="email"
                required
                value={address}
                onChange={(e) => setAddress(e.target.value)}
              />
            </div>
            <button type="submit" className="secondary" disabled={busy}>
              Continue as local test Google account
            </button>
          </form>
        </div>
      ) : null}
    </section>
  );
}
