import type { ShareLink } from '@ct/contracts';
import { LIMITS } from '@ct/contracts/limits';
import {
  DEFAULT_SHARE_SCOPE,
  PRIVATE_SHARE_SCOPES,
  SHARE_SCOPE_WORDS,
  SHARE_SCOPES,
  type ShareScope,
} from '@ct/contracts/share';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../api/client';
import { userDataKeys, useUid } from '../../api/keys';
import { formatGatheredDate } from '../../lib/format';
import './share.css';
import { ActionBanner, type Banner } from '../../components/StatusBanner';

const shareKey = (uid: string) => [...userDataKeys.calendarFeed(uid), 'share-links'] as const;
const SHARED_PARTS = SHARE_SCOPES.filter((s) => !PRIVATE_SHARE_SCOPES.includes(s));

const scopeText = (scope: readonly ShareScope[]) =>
  ['Colleges', ...scope.map((s) => SHARE_SCOPE_WORDS[s].label.toLowerCase())].join(', ');

/**
 * "Share with a parent or counselor": read-only links to the season. The student names each link, picks
 * what it shows (the list by default; each private part only if ticked, with plain words about who sees
 * it), sees each link's views, and can revoke it at once. A new link is shown only once.
 */
export function ShareLinksPanel() {
  const uid = useUid();
  const qc = useQueryClient();
  const key = shareKey(uid);
  const links = useQuery({
    queryKey: key,
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getShareLinks({ userId: uid }, { signal })).data,
  });
  const [label, setLabel] = useState('');
  const [days, setDays] = useState(String(LIMITS.share.defaultDays));
  const [scope, setScope] = useState<ShareScope[]>([...DEFAULT_SHARE_SCOPE]);
  const [made, setMade] = useState<{ label: string; url: string } | null>(null);
  const [banner, setBanner] = useState<Banner>(null);

  const create = useMutation({
    mutationFn: async () =>
      api.createShareLink({ userId: uid, label: label.trim(), scope, expiresInDays: Number(days) }),
    onSuccess: (r) => {
      setMade({ label: r.data.label, url: `${window.location.origin}${r.data.path}` });
      setBanner({ kind: 'success', text: r.message });
      setLabel('');
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: (err) => setBanner({ kind: 'error', text: errorMessage(err) }),
  });
  const revoke = useMutation({
    mutationFn: async (link: ShareLink) => api.revokeShareLink({ userId: uid, id: link.id }),
    onSuccess: (r) => {
      setBanner({ kind: 'success', text: r.message });
      setMade(null);
      qc.setQueryData(key, r.data);
    },
    onError: (err) => setBanner({ kind: 'error', text: errorMessage(err) }),
  });

  const toggle = (s: ShareScope, on: boolean) =>
    setScope((cur) => SHARE_SCOPES.filter((x) => (x === s ? on : cur.includes(x))));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBanner(null);
    create.mutate();
  };

  const copy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.url);
      setBanner({ kind: 'success', text: 'Link copied.' });
    } catch {
      setBanner({ kind: 'error', text: 'Could not copy: select the link and copy it yourself.' });
    }
  };

  const list = links.data ?? [];
  const scopeBox = (s: ShareScope) => (
    <label key={s}>
      <input
        type="checkbox"
        name="share-scope"
        value={s}
        checked={scope.includes(s)}
        onChange={(e) => toggle(s, e.target.checked)}
      />
      <span>
        <strong>{SHARE_SCOPE_WORDS[s].label}</strong>: {SHARE_SCOPE_WORDS[s].detail}
      </span>
    </label>
  );

  return (
    <section className="card share-links" aria-labelledby="share-links-title">
      <h2 id="share-links-title">Share with a parent or counselor</h2>
      <p className="muted">
        A read-only link shows your college list to whoever you give it to, without your password. They cannot
        change anything. You choose what it shows, and you can revoke it at any time.
      </p>

      <form onSubmit={submit} className="share-form">
        <div className="share-form-row">
          <div>
            <label htmlFor="share-label">Who is it for?</label>
            <input
              id="share-label"
              autoComplete="off"
              value={label}
              maxLength={LIMITS.share.labelMax}
              placeholder="Mom, Dad, Ms. Rivera"
              required
              onChange={(e) => setLabel(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor="share-days">Expires after</label>
            <select id="share-days" value={days} onChange={(e) => setDays(e.target.value)}>
              {[7, 30, 90, 180, 365].map((d) => (
                <option key={d} value={d}>
                  {d} days
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="share-scope">
          <legend>What it shows, besides the names of your colleges</legend>
          {SHARED_PARTS.map(scopeBox)}
        </fieldset>
        <fieldset className="share-scope">
          <legend>Private: shown only if you tick it</legend>
          {PRIVATE_SHARE_SCOPES.map(scopeBox)}
        </fieldset>
        <button type="submit" disabled={create.isPending || !uid}>
          Create share link
        </button>
      </form>

      <ActionBanner banner={banner} />

      {made ? (
        <div className="share-new-link feed-link">
          <label htmlFor="share-url">Link for {made.label}</label>
          <div className="feed-link-row">
            <input id="share-url" readOnly value={made.url} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="secondary" onClick={() => void copy()}>
              Copy link
            </button>
          </div>
        </div>
      ) : null}

      <h3>
        Your links ({list.length} of {LIMITS.share.linksPerStudent})
      </h3>
      {links.isError ? (
        <p className="muted">Your share links could not be loaded: {errorMessage(links.error)}</p>
      ) : list.length ? (
        <ul className="share-links-list">
          {list.map((l) => (
            <li key={l.id} data-share-link={l.label}>
              <div>
                <strong>{l.label}</strong>
                <div className="muted">
                  Shows {scopeText(l.scope)}. Created {formatGatheredDate(l.createdAt)}, expires{' '}
                  {formatGatheredDate(l.expiresAt)}.{' '}
                  {l.viewCount
                    ? `Viewed ${l.viewCount} ${l.viewCount === 1 ? 'time' : 'times'}, last ${formatGatheredDate(l.lastViewedAt)}.`
                    : 'Not viewed yet.'}
                </div>
              </div>
              <button
                type="button"
                className="danger small"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(l)}
              >
                Revoke<span className="visually-hidden"> the link for {l.label}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : links.isPending ? null : (
        <p className="muted">No share links yet.</p>
      )}
    </section>
  );
}
