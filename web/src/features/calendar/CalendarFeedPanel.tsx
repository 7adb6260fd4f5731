import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { formatGatheredDate } from '../../lib/format';
import { useUid, userDataKeys } from '../../api/keys';
import { ActionBanner, type Banner } from '../../components/StatusBanner';

/**
 * A private calendar subscription link: Google, Apple or Outlook calendars fetch the student's deadlines
 * from it and stay in sync. The link is secret, shown once, and can be replaced or revoked at any time.
 */
export function CalendarFeedPanel() {
  const uid = useUid();
  const qc = useQueryClient();
  const key = userDataKeys.calendarFeed(uid);
  const status = useQuery({
    queryKey: key,
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getCalendarFeed({ userId: uid }, { signal })).data,
  });
  const [link, setLink] = useState<string | null>(null);
  const [banner, setBanner] = useState<Banner>(null);
  const create = useMutation({
    mutationFn: async () => api.createCalendarFeed({ userId: uid }),
    onSuccess: (r) => {
      setLink(`${window.location.origin}${r.data.path}`);
      setBanner({ kind: 'success', text: r.message });
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: (err) => setBanner({ kind: 'error', text: errorMessage(err) }),
  });
  const revoke = useMutation({
    mutationFn: async () => api.revokeCalendarFeed({ userId: uid }),
    onSuccess: (r) => {
      setLink(null);
      setBanner({ kind: 'success', text: r.message });
      qc.setQueryData(key, r.data);
    },
    onError: (err) => setBanner({ kind: 'error', text: errorMessage(err) }),
  });
  const webcal = link ? link.replace(/^https?:\/\//, 'webcal://') : null;
  const active = status.data?.active ?? false;
  const busy = create.isPending || revoke.isPending;

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      setBanner({ kind: 'success', text: 'Link copied.' });
    } catch {
      setBanner({ kind: 'error', text: 'Could not copy: select the link and copy it yourself.' });
    }
  };

  return (
    <div className="calendar-feed">
      <h3>Subscribe from your calendar app</h3>
      <p className="muted">
        A private link keeps your deadlines in sync in Google, Apple or Outlook calendars. Anyone with the
        link can see your deadlines, so keep it to yourself; you can revoke it at any time.
      </p>
      {link && webcal ? (
        <div className="feed-link">
          <label htmlFor="feed-url">Private calendar link</label>
          <div className="feed-link-row">
            <input id="feed-url" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="secondary" onClick={() => void copy()}>
              Copy link
            </button>
          </div>
          <p className="feed-open">
            <a href={webcal}>Open in your calendar app (webcal)</a>
            {' · '}
            <a
              href={`https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              Subscribe in Google Calendar
            </a>
          </p>
        </div>
      ) : active && status.data ? (
        <p>
          Your private calendar link is active (created {formatGatheredDate(status.data.createdAt)}
          {status.data.lastUsedAt ? `, last read ${formatGatheredDate(status.data.lastUsedAt)}` : ''}). For
          your privacy it is shown only once: create a new link to see one again (the old link then stops
          working).
        </p>
      ) : null}
      <div className="calendar-actions">
        <button type="button" onClick={() => create.mutate()} disabled={busy || status.isPending}>
          {active ? 'Create a new link' : 'Create private calendar link'}
        </button>
        {active ? (
          <button type="button" className="danger" onClick={() => revoke.mutate()} disabled={busy}>
            Revoke link
          </button>
        ) : null}
      </div>
      <ActionBanner banner={banner} />
    </div>
  );
}
