import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { api } from '../../api/client';
import { useSearchParams } from 'react-router';
import { useSession } from '../../auth/session';
import { useConfig } from '../../config';
import { useReducedMotion } from '../../hooks/useReducedMotion';
import { FeatureIcon } from '../landing/FeatureIcon';
import { AnimatedCounter } from './AnimatedCounter';
import {
  builderIntro,
  counters,
  faqItems,
  FEATURE_CARDS,
  mission,
  TABS,
  TIMELINE,
  VALUES,
  type TabKey,
} from './content';
import { FaqList } from './FaqList';
import './about.css';

const isTab = (s: string | null): s is TabKey => TABS.some((t) => t.key === s);

/** The About page: a header greeting the student, and six tabs; the chosen tab is kept in `?tab=`. */
export function AboutTabs() {
  const { productName, supportEmail, faqEmail, donateUrl, builderUrl } = useConfig();
  const { user } = useSession();
  const reduced = useReducedMotion();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: TabKey = isTab(raw) ? raw : 'about';
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  // The real size of the collection, never a round number: the counters show what a student can find.
  const stats = useQuery({
    queryKey: ['collection-stats'],
    queryFn: ({ signal }) => api.getCollectionStats({ signal }),
    staleTime: 5 * 60_000,
  });

  const select = (key: TabKey, focus = false) => {
    setParams(key === 'about' ? {} : { tab: key }, { replace: true });
    const el = tabRefs.current[key];
    if (focus) el?.focus();
    // On a phone the row of tabs scrolls: the chosen one comes into view.
    el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  };
  // A link straight to a tab (?tab=faq) shows that tab in the row too.
  useEffect(() => {
    tabRefs.current[tab]?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    // Only on arrival: later changes go through select().
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // WAI-ARIA tabs: arrows move between tabs (and select them), Home/End jump to the ends.
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.findIndex((t) => t.key === tab);
    const to =
      e.key === 'ArrowRight'
        ? (i + 1) % TABS.length
        : e.key === 'ArrowLeft'
          ? (i - 1 + TABS.length) % TABS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? TABS.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    select(TABS[to]!.key, true);
  };

  const name = user?.displayName?.trim();
  return (
    <div className="about">
      <header className="about-header">
        <h1>About {productName}</h1>
        {user ? (
          <p className="about-greeting">
            Hi, {name || user.email || 'there'}! Thanks for using {productName}.
          </p>
        ) : (
          <p className="about-greeting">
            A free college-application organizer, built by a student for students.
          </p>
        )}
      </header>

      <div role="tablist" aria-label="About sections" className="about-tablist">
        {TABS.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              tabRefs.current[t.key] = el;
            }}
            type="button"
            role="tab"
            id={`about-tab-${t.key}`}
            aria-selected={tab === t.key}
            aria-controls={`about-panel-${t.key}`}
            tabIndex={tab === t.key ? 0 : -1}
            className={tab === t.key ? 'active' : ''}
            onClick={() => select(t.key)}
            onKeyDown={onKeyDown}
          >
            {t.label}
          </button>
        ))}
      </div>

      <div
        key={tab}
        role="tabpanel"
        id={`about-panel-${tab}`}
        aria-labelledby={`about-tab-${tab}`}
        tabIndex={0}
        className={`about-panel${reduced ? '' : ' fade'}`}
      >
        {tab === 'about' && (
          <>
            <h2>Our mission</h2>
            <p className="about-lead">{mission(productName)}</p>
            <h2>What we value</h2>
            <ul className="about-values">
              {VALUES.map((v) => (
                <li key={v.title} className="card">
                  <h3>{v.title}</h3>
                  <p>{v.text}</p>
                </li>
              ))}
            </ul>
            <h2>By the numbers</h2>
            <div className="about-counters">
              {counters(stats.data ?? null, stats.isError).map((c) => (
                <AnimatedCounter key={c.label} value={c.value} label={c.label} />
              ))}
            </div>
            <h2>Who built it</h2>
            <p>
              {builderIntro(productName)}{' '}
              <a href={builderUrl} target="_blank" rel="noopener noreferrer">
                Meet the builder<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </p>
          </>
        )}

        {tab === 'features' && (
          <>
            <h2>Features</h2>
            <ul className="about-cards">
              {FEATURE_CARDS.map((f) => (
                <li key={f.title} className="card">
                  <span className="about-card-icon">
                    <FeatureIcon name={f.icon} size={36} />
                  </span>
                  <h3>{f.title}</h3>
                  <p>{f.description}</p>
                </li>
              ))}
            </ul>
          </>
        )}

        {tab === 'how' && (
          <>
            <h2>How it works</h2>
            <ol className="about-timeline">
              {TIMELINE.map((s, i) => (
                <li key={s.title}>
                  <span className="about-step" aria-hidden="true">
                    {i + 1}
                  </span>
                  <div>
                    <h3>{s.title}</h3>
                    <p>{s.description}</p>
                  </div>
                </li>
              ))}
            </ol>
          </>
        )}

        {tab === 'faq' && (
          <>
            <h2>Frequently asked questions</h2>
            <FaqList items={faqItems(productName, faqEmail)} />
          </>
        )}

        {tab === 'contact' && (
          <>
            <h2>Contact</h2>
            <p>Questions, ideas, or found something wrong? We would love to hear from you.</p>
            <p>
              <a className="button" href={`mailto:${supportEmail}`}>
                E-mail {supportEmail}
              </a>
            </p>
          </>
        )}

        {tab === 'donate' && (
          <>
            <h2>Donate</h2>
            <p>
              {productName} is free and has no paid plans. Donations pay for the servers and the data
              gathering that keep it running for every student.
            </p>
            <p>
              <a className="button" href={donateUrl} target="_blank" rel="noopener noreferrer">
                Donate to {productName}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
