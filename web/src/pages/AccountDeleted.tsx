import { MSG } from '@ct/contracts/messages';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useSession } from '../auth/session';
import { usePageMeta } from '../hooks/usePageMeta';

/** Shown once an account was deleted: it ends the local session, and says everything is gone. */
export default function AccountDeletedPage() {
  usePageMeta('Account deleted', MSG.accountDeleted);
  const { signOut } = useSession();
  const deleted = (useLocation().state as { deleted?: boolean } | null)?.deleted === true;
  useEffect(() => {
    // Only right after a deletion: someone who opens this address while signed in stays signed in.
    if (deleted) void signOut(false).catch(() => {});
  }, [deleted, signOut]);
  return (
    <section className="page">
      <h1>Account deleted</h1>
      <p role="status">{MSG.accountDeleted}</p>
      <p>
        Your colleges, checklists, notes, calendar link and sign-in account are gone for good. Thank you for
        using the site. <Link to="/">Go to the home page</Link>.
      </p>
    </section>
  );
}
