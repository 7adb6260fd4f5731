import { useState } from 'react';
import { useSession } from '../../auth/session';
import { AccountSettingsModal } from './AccountSettingsModal';
import defaultAvatar from './default-avatar.svg';
import './account.css';

/** Profile header: display name, e-mail and photo (a default image when none), Account Settings, Sign Out. */
export function AccountSection() {
  const { user, signOut } = useSession();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [photoFailed, setPhotoFailed] = useState(false);
  if (!user) return null;
  const name = user.displayName?.trim() || 'Student';
  const photo = user.photoURL && !photoFailed ? user.photoURL : defaultAvatar;
  return (
    <section className="card account-section" aria-labelledby="account-name">
      <img
        className="account-photo"
        src={photo}
        alt={`${name}'s profile photo`}
        width={96}
        height={96}
        referrerPolicy="no-referrer"
        onError={() => setPhotoFailed(true)}
      />
      <div className="account-identity">
        <h2 id="account-name">{name}</h2>
        <p className="muted">{user.email}</p>
      </div>
      <div className="account-actions">
        <button type="button" onClick={() => setSettingsOpen(true)} aria-haspopup="dialog">
          Account Settings
        </button>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign Out
        </button>
      </div>
      <AccountSettingsModal user={user} open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </section>
  );
}
