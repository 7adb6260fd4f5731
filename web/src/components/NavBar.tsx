import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useConfig } from '../config';
import { useFocusTrap } from '../hooks/useFocusTrap';
import { AccountMenu } from './AccountMenu';

const LINKS = [
  { to: '/', label: 'Home', end: true },
  { to: '/about', label: 'About' },
  { to: '/search', label: 'Search' },
  { to: '/essays', label: 'Essays' },
  { to: '/usercolleges', label: 'Your Colleges' },
  { to: '/profile', label: 'Profile' },
];

/**
 * The navigation bar on every page, with the account menu; on small screens the links collapse into a
 * full-screen toggle menu that keeps focus inside while open (Escape closes it, focus returns to the
 * toggle). Memoised: the shell re-renders on every session change (a token refresh too), and the links
 * follow the location and the account menu the session by themselves.
 */
export const NavBar = memo(function NavBar({ loaded, isAdmin }: { loaded: boolean; isAdmin: boolean }) {
  const { productName } = useConfig();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  useEffect(() => setOpen(false), [location.pathname]);
  const close = useCallback(() => {
    setOpen(false);
    toggle.current?.focus();
  }, []);
  useFocusTrap(open, () => [toggle.current, menu.current], close);
  const links = isAdmin ? [...LINKS, { to: '/admin', label: 'Admin' }] : LINKS;
  return (
    <header className={`navbar${loaded ? ' loaded' : ''}`}>
      <nav aria-label="Main" className="navbar-inner">
        <NavLink to="/" className="brand" end>
          {productName}
        </NavLink>
        <ul id="main-menu" ref={menu} className={`nav-links${open ? ' open' : ''}`}>
          {links.map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} end={l.end ?? false} onClick={() => setOpen(false)}>
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="navbar-end">
          <AccountMenu />
          <button
            ref={toggle}
            type="button"
            className="menu-toggle"
            aria-expanded={open}
            aria-controls="main-menu"
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpen((o) => !o)}
          >
            <span aria-hidden="true">{open ? '✕' : '☰'}</span>
          </button>
        </div>
      </nav>
    </header>
  );
});
