import type { ReminderSettings } from '@ct/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { useUid } from '../../api/keys';

/** The lead times a student picks from (days before; 0 is the morning of). */
const LEADS: Array<[number, string]> = [
  [14, '14 days before'],
  [7, '7 days before'],
  [2, '2 days before'],
  [1, '1 day before'],
  [0, 'The morning of'],
];

const settingsKey = (uid: string) => ['reminder-settings', uid] as const;

/** The VAPID key as PushManager wants it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** This device's push subscription, if it has one. */
async function deviceSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  const reg = await navigator.serviceWorker.ready;
  return reg.pushManager.getSubscription();
}

/**
 * Deadline reminders on this phone: turned on per device (the browser's push subscription), with the
 * lead times the student wants, and a pause for all devices.
 */
export function RemindersPanel() {
  const uid = useUid();
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: settingsKey(uid),
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getReminderSettings({ userId: uid }, { signal })).data,
  });
  const [device, setDevice] = useState<PushSubscription | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const supported = typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window;
  useEffect(() => {
    void deviceSubscription().then(setDevice, () => setDevice(null));
  }, []);
  const saved = (data: ReminderSettings) => qc.setQueryData(settingsKey(uid), data);

  const turnOn = useMutation({
    mutationFn: async () => {
      if ((await Notification.requestPermission()) !== 'granted')
        throw new Error('Notifications are blocked for this site. Allow them in the browser settings.');
      const reg = await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(settings.data!.publicKey),
      });
      const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
      const r = await api.subscribeReminders({ userId: uid, subscription: json });
      setDevice(sub);
      return r;
    },
    onSuccess: (r) => {
      saved(r.data);
      setMessage(r.message);
    },
    onError: (err) => setMessage(errorMessage(err)),
  });
  const turnOff = useMutation({
    mutationFn: async () => {
      const sub = device;
      if (!sub) return null;
      await sub.unsubscribe().catch(() => false);
      setDevice(null);
      return api.unsubscribeReminders({ userId: uid, endpoint: sub.endpoint });
    },
    onSuccess: (r) => {
      if (r) {
        saved(r.data);
        setMessage(r.message);
      }
    },
    onError: (err) => setMessage(errorMessage(err)),
  });
  const change = useMutation({
    mutationFn: (c: { leadDays?: number[]; paused?: boolean }) =>
      api.updateReminderSettings({ userId: uid, ...c }),
    onSuccess: (r) => {
      saved(r.data);
      setMessage(r.message);
    },
    onError: (err) => setMessage(errorMessage(err)),
  });

  const s = settings.data;
  return (
    <section className="card reminders-panel" aria-labelledby="reminders-title">
      <h2 id="reminders-title">Deadline reminders</h2>
      <p className="muted">
        A notification on this device before each deadline of your plan, at 9 in the morning where it is due.
      </p>
      {!supported ? (
        <p>
          This browser cannot show reminders. On an iPhone, install the app first (Share, then Add to Home
          Screen).
        </p>
      ) : device ? (
        <button type="button" className="button secondary" onClick={() => turnOff.mutate()}>
          Turn off on this device
        </button>
      ) : (
        <button
          type="button"
          className="button"
          disabled={!s || turnOn.isPending}
          onClick={() => turnOn.mutate()}
        >
          Turn on reminders on this device
        </button>
      )}
      {s && (
        <fieldset disabled={change.isPending}>
          <legend>Remind me</legend>
          {LEADS.map(([days, label]) => (
            <label key={days} className="checkbox-row">
              <input
                type="checkbox"
                checked={s.leadDays.includes(days)}
                onChange={(e) =>
                  change.mutate({
                    leadDays: e.target.checked ? [...s.leadDays, days] : s.leadDays.filter((d) => d !== days),
                  })
                }
              />{' '}
              {label}
            </label>
          ))}
          <label className="checkbox-row">
            <input
              type="checkbox"
              checked={s.paused}
              onChange={(e) => change.mutate({ paused: e.target.checked })}
            />{' '}
            Pause all reminders
          </label>
        </fieldset>
      )}
      <p role="status" aria-live="polite">
        {message}
      </p>
    </section>
  );
}
