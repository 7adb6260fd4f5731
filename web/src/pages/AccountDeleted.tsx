import { MSG } from '@ct/contracts/messages';
import { Link } from 'react-router-dom';
import { usePageMeta } from '../hooks/usePageMeta';

/** Shown once an account was deleted: the student is signed out and everything is gone. */
export default function AccountDeletedPage() {
  usePageMeta('Account deleted', MSG.accountDeleted);
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
