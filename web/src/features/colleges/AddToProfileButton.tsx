import { LIMITS, MSG } from '@ct/contracts/messages';
import { useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { useSession } from '../../auth/session';

type Banner = { kind: 'success' | 'error'; text: string } | null;

/**
 * Adds a college to the student's list (POST /add-user-college). Success shows
 * "College successfully added to your profile!" (or that a removed one came back with its progress) for
 * 3 s; a failure shows the server's message.
 */
export function AddToProfileButton({ collegeName }: { collegeName: string }) {
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState<Banner>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const add = async () => {
    clearTimeout(timer.current);
    setBanner(null);
    if (!user) {
      setBanner({ kind: 'error', text: MSG.userNotAuthenticated });
      return;
    }
    setBusy(true);
    try {
      const reply = await api.addUserCollege({ userId: user.uid, collegeName });
      // One removed in the last 30 days comes back with its checklist progress, and says so.
      setBanner({ kind: 'success', text: reply.restored ? reply.message : MSG.collegeAdded });
      timer.current = setTimeout(() => setBanner(null), LIMITS.addCollegeBannerMs);
    } catch (err) {
      setBanner({ kind: 'error', text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="add-to-profile">
      <button type="button" onClick={() => void add()} disabled={busy}>
        {busy ? 'Adding...' : 'Add to Profile'}
      </button>
      {banner ? (
        <div className={`banner ${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'}>
          {banner.text}
        </div>
      ) : null}
    </div>
  );
}
