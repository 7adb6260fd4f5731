import { TIMINGS } from '../../lib/timings';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { HOME_SIGNED_IN, loginFor } from '../../auth/next';
import { useSession } from '../../auth/session';
import { useConfig } from '../../config';
import { useReducedMotion } from '../../hooks/useReducedMotion';
import { FeatureIcon, type IconName } from './FeatureIcon';
import { TAGLINES } from './taglines';
import { useTypewriter } from './useTypewriter';
import './landing.css';

interface Feature {
  icon: IconName;
  title: string;
  text: string;
  to: string;
  cta: string;
}

const FEATURES: Feature[] = [
  {
    icon: 'search',
    title: 'Search for Colleges',
    text: 'Look up any U.S. college by its official name and get its admission rate, size, costs, deadlines and requirements on one card, then add it to your list with one click.',
    to: '/search',
    cta: 'Start searching',
  },
  {
    icon: 'calendar',
    title: 'Track Your Deadlines',
    text: 'Every deadline of every college on your list lands in one calendar, next to the dates you add yourself. Download it as a calendar file or send a date to Google Calendar.',
    to: '/profile',
    cta: 'Open your calendar',
  },
  {
    icon: 'cap',
    title: 'Discover Your Major',
    text: 'Pick a major at a college you like and see the typical weighted GPA, SAT score, activities and essay topics of the students it admits.',
    to: '/usercolleges',
    cta: 'Explore majors',
  },
  {
    icon: 'pen',
    title: 'Essay Examples',
    text: 'Browse the essay prompts of your colleges and read example essays for each one, so a blank page never stops you.',
    to: '/essays',
    cta: 'Read examples',
  },
  {
    icon: 'check',
    title: 'Stay on Top',
    text: 'Each college gets its own application checklist with a progress bar. Tick things off as you go and always know what is left.',
    to: '/usercolleges',
    cta: 'See your checklists',
  },
  {
    icon: 'chart',
    title: 'Compare Stats',
    text: 'Put up to four colleges side by side: sizes, admission rates, tuition, net price by family income and earnings after graduation, with the best figure highlighted where one is clearly better.',
    to: '/search',
    cta: 'Compare colleges',
  },
];

/**
 * The full-screen landing: asks the headline question at once, fades in the rest and types the tagline.
 */
export function Landing() {
  const { productName } = useConfig();
  const { user, loading, signOut } = useSession();
  const navigate = useNavigate();
  const reduced = useReducedMotion();
  const [visible, setVisible] = useState(reduced);
  const [paused, setPaused] = useState(false);
  const tagline = useTypewriter(TAGLINES, {
    charMs: TIMINGS.typingCharMs,
    holdMs: TIMINGS.typingHoldMs,
    paused,
    reduced,
  });

  useEffect(() => {
    if (reduced) {
      setVisible(true);
      return;
    }
    const t = setTimeout(() => setVisible(true), TIMINGS.landingFadeInMs);
    return () => clearTimeout(t);
  }, [reduced]);

  return (
    <div className={`landing${visible ? ' visible' : ''}`} data-testid="landing">
      <section className="landing-hero" aria-labelledby="landing-title">
        <h1 id="landing-title">Are you {productName}?</h1>
        <p className="landing-tagline landing-fade">
          {/* Screen readers get the whole message once; the typing itself is decoration. */}
          <span className="visually-hidden">{tagline.message}</span>
          <span aria-hidden="true" data-testid="tagline">
            {tagline.text}
          </span>
          <span className={`caret${paused ? ' still' : ''}`} aria-hidden="true" />
        </p>
        <button
          type="button"
          className="link landing-pause landing-fade"
          aria-pressed={paused}
          onClick={() => setPaused((p) => !p)}
        >
          {paused ? 'Play tagline' : 'Pause tagline'}
        </button>
        <div className="landing-actions landing-fade">
          {loading ? null : user ? (
            <>
              <Link className="button" to={HOME_SIGNED_IN}>
                Go to Your Colleges
              </Link>
              <button type="button" className="secondary" onClick={() => void signOut()}>
                Sign Out
              </button>
            </>
          ) : (
            <button type="button" onClick={() => navigate('/login')}>
              Sign In
            </button>
          )}
          <Link className="button secondary" to="/about">
            Learn more
          </Link>
        </div>
      </section>

      <div className="landing-features landing-fade">
        {FEATURES.map((f, i) => (
          <section
            key={f.title}
            className={`landing-feature${i % 2 ? ' alt' : ''}`}
            aria-labelledby={`feature-${i}`}
          >
            <span className="landing-feature-icon">
              <FeatureIcon name={f.icon} size={48} />
            </span>
            <div>
              <h2 id={`feature-${i}`}>{f.title}</h2>
              <p>{f.text}</p>
              {/* Signed out, the login page brings the student to this feature afterwards. */}
              <Link to={user ? f.to : loginFor(f.to)}>
                {user ? f.cta : `Sign in to ${f.cta.toLowerCase()}`}
              </Link>
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
