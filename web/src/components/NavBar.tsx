import { useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useConfig } from '../config';

const LINKS = [
  { to: '/', label: 'Home', end: true },
  { to: '/about', label: 'About' },
  { to: '/search', label: 'Search' },
  { to: '/essays', label: 'Essays' },
  { to: '/usercolleges', label: 'Your Colleges' },
  { to: '/profile', label: 'Profile' },
];

/** The navigation bar on every page; on small screens it collapses into a full-screen toggle menu. */
export function NavBar({ loaded, isAdmin }: { loaded: boolean; isAdmin: boolean }) {
  const { productName } = useConfig();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  const links = isAdmin ? [...LINKS, { to: '/admin', label: 'Admin' }] : LINKS;
  return (
    <header className={`navbar${loaded ? ' loaded' : ''}`}>
      <nav aria-label="Main" className="navbar-inner">
        <NavLink to="/" className="brand" end>
          {productName}
        </NavLink>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="main-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true">{open ? '✕' : '☰'}</span>
        </button>
        <ul id="main-menu" className={`nav-links${open ? ' open' : ''}`}>
          {links.map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} end={l.end ?? false} onClick={() => setOpen(false)}>
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
