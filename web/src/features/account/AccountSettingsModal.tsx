import { MSG } from '@ct/contracts/messages';
import { TIMINGS } from '../../lib/timings';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { authErrorCode, authErrorMessage, providerDetail } from '../../auth/errors';
import { useSession, type SessionUser } from '../../auth/session';
import { useCooldown } from '../../auth/useCooldown';
import { ActionBanner } from '../../components/StatusBanner';

/** The SDK's account calls, loaded when the student uses one (see auth/actions.ts). */
const sdk = () => import('../../auth/actions');

type Result = { kind: 'success' | 'error'; text: string } | null;

/** The reason inside "Error updating ...: {message}", worded for someone already signed in. */
function accountErrorReason(err: unknown): string {
  const code = authErrorCode(err);
  if (code === 'auth/wrong-password' || code === 'auth/invalid-credential')
    return 'The current password is incorrect.';
  return authErrorMessage(err, providerDetail(err) ?? MSG.loginGenericError);
}

/**
 * Account Settings: Update Name, Change Password (re-authenticates with the current password first) and
 * Send Password Reset Email with the 60 s lock. A native modal dialog, so focus stays inside and Escape
 * closes it.
 */
export function AccountSettingsModal({
  user,
  open,
  onClose,
}: {
  user: SessionUser;
  open: boolean;
  onClose: () => void;
}) {
  const { refreshUser, sdkUser } = useSession();
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(user.displayName ?? '');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [result, setResult] = useState<Result>(null);
  const [busy, setBusy] = useState(false);
  const resetLock = useCooldown(TIMINGS.passwordResetLockMs);
  const hasPassword = user.providerData.some((p) => p.providerId === 'password');

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      setName(user.displayName ?? '');
      setResult(null);
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open, user]);

  const run = async (action: () => Promise<Result>) => {
    if (busy) return;
    setBusy(true);
    setResult(null);
    try {
      setResult(await action());
    } finally {
      setBusy(false);
    }
  };

  const updateName = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      try {
        const { updateProfile } = await sdk();
        await updateProfile(await sdkUser(), { displayName: name.trim() });
        await refreshUser();
        return { kind: 'success', text: MSG.displayNameUpdated };
      } catch (err) {
        return { kind: 'error', text: MSG.displayNameError(accountErrorReason(err)) };
      }
    });
  };

  const changePassword = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      try {
        const { EmailAuthProvider, reauthenticateWithCredential, updatePassword } = await sdk();
        const u = await sdkUser();
        await reauthenticateWithCredential(u, EmailAuthProvider.credential(u.email ?? '', current));
        await updatePassword(u, next);
        setCurrent('');
        setNext('');
        return { kind: 'success', text: MSG.passwordUpdated };
      } catch (err) {
        return { kind: 'error', text: MSG.passwordError(accountErrorReason(err)) };
      }
    });
  };

  const sendReset = () => {
    if (resetLock.locked || busy) return;
    resetLock.start();
    void run(async () => {
      try {
        const { firebaseAuth, sendPasswordResetEmail } = await sdk();
        await sendPasswordResetEmail(firebaseAuth(), user.email ?? '');
        return { kind: 'success', text: MSG.resetSent };
      } catch (err) {
        return { kind: 'error', text: MSG.resetError(accountErrorReason(err)) };
      }
    });
  };

  return (
    <dialog
      ref={dialog}
      className="account-modal"
      aria-labelledby={`${ids}-title`}
      onClose={onClose}
      onCancel={onClose}
    >
      <div className="account-modal-inner">
        <div className="account-modal-header">
          <h2 id={`${ids}-title`}>Account Settings</h2>
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        </div>
        <div aria-live="polite">
          <ActionBanner banner={result} />
        </div>

        <form onSubmit={updateName} aria-labelledby={`${ids}-name-title`}>
          <h3 id={`${ids}-name-title`}>Update Name</h3>
          <div className="field">
            <label htmlFor={`${ids}-name`}>Display name</label>
            <input
              id={`${ids}-name`}
              type="text"
              autoComplete="name"
              required
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <button type="submit" disabled={busy}>
            Update Name
          </button>
        </form>

        {hasPassword ? (
          <form onSubmit={changePassword} aria-labelledby={`${ids}-pw-title`}>
            <h3 id={`${ids}-pw-title`}>Change Password</h3>
            <div className="field">
              <label htmlFor={`${ids}-current`}>Current password</label>
              <input
                id={`${ids}-current`}
                type="password"
                autoComplete="current-password"
                required
                value={current}
                onChange={(e) => setCurrent(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-new`}>New password</label>
              <input
                id={`${ids}-new`}
                type="password"
                autoComplete="new-password"
                required
                value={next}
                onChange={(e) => setNext(e.target.value)}
              />
            </div>
            <button type="submit" disabled={busy}>
              Change Password
            </button>
          </form>
        ) : (
          <p className="muted account-reset">
            You sign in with Google, so there is no password to change here.
          </p>
        )}

        <div className="account-reset">
          <button type="button" className="secondary" disabled={resetLock.locked} onClick={sendReset}>
            {resetLock.locked ? MSG.pleaseWait : 'Send Password Reset Email'}
          </button>
        </div>
      </div>
    </dialog>
  );
}
