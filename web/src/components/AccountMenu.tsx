import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSession } from '../auth/session';

/**
 * The header's account menu: who is signed in, a link to the profile and Sign out. A disclosure button
 * (Enter or Space opens it, Tab walks through it, Escape or a click elsewhere closes it and focus goes
 * back to the button). Signed out, a "Sign In" link instead (the landing page's words).
 */
export function AccountMenu() {
  const { user, loading, signOut } = useSession();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const id = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => setOpen(false), [location.pathname, location.search]);
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close(true);
    };
    const onPointer = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close]);

  if (loading) return null;
  if (!user) {
    if (location.pathname === '/login') return null;
    return (
      <Link className="account-login" to="/login">
        Sign In
      </Link>
    );
  }
  const name = user.displayName?.trim() || user.email || 'Student';
  const first = name.split(/\s+/)[0] ?? name;
  return (
    <div
      ref={wrap}
      className="account-menu"
      onBlur={(e) => {
        // Tabbing out of the open menu closes it.
        if (open && !wrap.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="account-button"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="account-initial" aria-hidden="true">
          {first.charAt(0).toUpperCase()}
        </span>
        <span className="visually-hidden">Account menu for </span>
        <span className="account-first">{first}</span>
        <span aria-hidden="true" className="account-caret">
          ▾
        </span>
      </button>
      {open ? (
        <div id={`${id}-panel`} className="account-panel">
          <p className="account-who">
            <span className="muted">Signed in as</span>
            <strong>{user.displayName?.trim() || 'Student'}</strong>
            {user.email ? <span className="account-email">{user.email}</span> : null}
          </p>
          <ul>
            <li>
              <Link to="/profile" onClick={() => setOpen(false)}>
                Profile
              </Link>
            </li>
            <li>
              <button
                type="button"
                onClick={() => {
                  setOpen(false);
                  void signOut().then((out) => out && navigate('/', { replace: true }));
                }}
              >
                Sign out
              </button>
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}
