import { LIMITS } from '@ct/contracts/limits';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from 'firebase/auth';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, errorMessage } from '../../api/client';
import { authErrorMessage } from '../../auth/errors';
import { useSession, type SessionUser } from '../../auth/session';
import { downloadText } from '../calendar/deadlines';
import { ActionBanner, type Banner } from '../../components/StatusBanner';

const usesPassword = (u: SessionUser) => u.providerData.some((p) => p.providerId === 'password');

/**
 * Proves it is really the student (and that they mean it) before anything is deleted. The server decides
 * (it refuses a sign-in older than 5 minutes); this re-check makes that sign-in fresh.
 */
async function confirmIdentity(user: User, password: string): Promise<void> {
  // The SDK's calls, loaded when they are used (see auth/actions.ts).
  const {
    EmailAuthProvider,
    GoogleAuthProvider,
    browserPopupRedirectResolver,
    reauthenticateWithCredential,
    reauthenticateWithPopup,
  } = await import('../../auth/actions');
  if (usesPassword(user)) {
    await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email ?? '', password));
    return;
  }
  const signedIn = Date.parse((await user.getIdTokenResult()).authTime);
  // A little margin, so the sign-in is still recent when the request arrives.
  if (Number.isFinite(signedIn) && Date.now() - signedIn < (LIMITS.recentSignInSeconds - 30) * 1000) return;
  await reauthenticateWithPopup(user, new GoogleAuthProvider(), browserPopupRedirectResolver);
}

/** "Export my data" (a JSON file of colleges, checklists and notes) and "Delete my account and data". */
export function YourDataSection() {
  const { user, sdkUser } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [banner, setBanner] = useState<Banner>(null);
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const [deleting, setDeleting] = useState(false);
  if (!user) return null;
  const needsPassword = usesPassword(user);

  const exportData = async () => {
    setBanner(null);
    setExporting(true);
    try {
      const r = await api.exportMyData({ userId: user.uid });
      const day = r.data.exportedAt.slice(0, 10);
      downloadText(JSON.stringify(r.data, null, 2), `college-ready-data-${day}.json`, 'application/json');
      setBanner({ kind: 'success', text: 'Your data was exported.' });
    } catch (err) {
      setBanner({ kind: 'error', text: `Could not export your data: ${errorMessage(err)}` });
    } finally {
      setExporting(false);
    }
  };

  const deleteAll = async (e: FormEvent) => {
    e.preventDefault();
    setBanner(null);
    setDeleting(true);
    try {
      await confirmIdentity(await sdkUser(), password);
    } catch (err) {
      setDeleting(false);
      setBanner({ kind: 'error', text: `Nothing was deleted: ${authErrorMessage(err)}` });
      return;
    }
    try {
      // The server deletes everything (data, role, then the sign-in account) and says plainly what it
      // could not do.
      await api.deleteAccount({ userId: user.uid });
    } catch (err) {
      setDeleting(false);
      const text = err instanceof ApiError ? err.message : `Nothing was deleted: ${errorMessage(err)}`;
      setBanner({ kind: 'error', text });
      return;
    }
    qc.clear();
    // The confirmation page ends the local session once it shows (the account no longer exists): signing
    // out here would send this signed-in-only page to / before the navigation lands.
    navigate('/account-deleted', { replace: true, state: { deleted: true } });
  };

  return (
    <section className="card your-data" aria-labelledby="your-data-title">
      <h2 id="your-data-title">Your Data</h2>
      <p className="muted">
        Download everything we keep for you (your colleges, checklists and notes), or delete your account and
        all of it for good.
      </p>
      <div className="data-actions">
        <button type="button" className="secondary" onClick={() => void exportData()} disabled={exporting}>
          {exporting ? 'Exporting...' : 'Export my data'}
        </button>
        {!confirming ? (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete my account and data
          </button>
        ) : null}
      </div>
      {confirming ? (
        <form
          className="danger-zone"
          aria-label="Confirm account deletion"
          onSubmit={(e) => void deleteAll(e)}
        >
          <p>
            <strong>This cannot be undone.</strong> Your colleges, checklists, notes, calendar link and your
            account will be deleted.
          </p>
          {needsPassword ? (
            <div className="field">
              <label htmlFor="delete-password">Current password</label>
              <input
                id="delete-password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
          ) : null}
          <div className="data-actions">
            <button type="submit" className="danger" disabled={deleting}>
              {deleting ? 'Deleting...' : 'Yes, delete my account and data'}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={deleting}
              onClick={() => {
                setConfirming(false);
                setPassword('');
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <ActionBanner banner={banner} />
    </section>
  );
}
