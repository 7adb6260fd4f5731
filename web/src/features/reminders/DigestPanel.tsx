import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { useUid } from '../../api/keys';

const settingsKey = (uid: string) => ['digest-settings', uid] as const;

/** This browser's time zone, for "Monday morning" where the student is. */
function browserZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && zone.length <= 60 ? zone : undefined;
}

/**
 * The weekly e-mail of deadlines: offered only when the server sends e-mail (an operator set up SMTP). It
 * goes to the account's verified address on Monday mornings, and each one has a link that stops it.
 */
export function DigestPanel() {
  const uid = useUid();
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: settingsKey(uid),
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getDigestSettings({ userId: uid }, { signal })).data,
  });
  const [message, setMessage] = useState<string | null>(null);
  // What the student just chose, shown at once while it is saved.
  const [choice, setChoice] = useState<boolean | null>(null);
  const change = useMutation({
    mutationFn: (enabled: boolean) => {
      const zone = browserZone();
      return api.updateDigestSettings({ userId: uid, enabled, ...(enabled && zone ? { zone } : {}) });
    },
    onSuccess: (r) => {
      qc.setQueryData(settingsKey(uid), r.data);
      setMessage(r.message);
    },
    onError: (err) => setMessage(errorMessage(err)),
    onSettled: () => setChoice(null),
  });
  const s = settings.data;
  if (!s?.available) return null;
  return (
    <section className="card digest-panel" aria-labelledby="digest-title">
      <h2 id="digest-title">Weekly e-mail</h2>
      <p className="muted">
        Every Monday morning, the deadlines of your plan for the next two weeks, each with a link to its
        checklist.
      </p>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={choice ?? s.enabled}
          disabled={change.isPending}
          onChange={(e) => {
            setChoice(e.target.checked);
            change.mutate(e.target.checked);
          }}
        />{' '}
        Send me the weekly e-mail
      </label>
      {s.enabled && s.email && <p>It goes to {s.email}.</p>}
      <p role="status" aria-live="polite">
        {message}
      </p>
    </section>
  );
}
