import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';
import { ActionBanner, type Banner } from '../../components/StatusBanner';

/** "30, 14, 7, 1" → [30, 14, 7, 1]; null when a part is not a whole number. */
function parseDays(text: string): number[] | null {
  const parts = text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length || parts.some((p) => !/^\d{1,3}$/.test(p))) return null;
  return parts.map(Number);
}

/**
 * The fall the student enters college (which sets the admission cycle of every deadline shown) and the
 * days before a deadline that the calendar file and the feed remind them.
 */
export function DeadlineSettingsPanel() {
  const uid = useUid();
  const qc = useQueryClient();
  const key = ['deadline-settings', uid] as const;
  const yearId = useId();
  const daysId = useId();
  const settings = useQuery({
    queryKey: key,
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getDeadlineSettings({ userId: uid }, { signal })).data,
  });
  const [days, setDays] = useState<string | null>(null);
  const [banner, setBanner] = useState<Banner>(null);
  const save = useMutation({
    mutationFn: async (change: { enteringYear?: number | null; reminderDays?: number[] | null }) =>
      api.updateDeadlineSettings({ userId: uid, ...change }),
    onSuccess: (r) => {
      qc.setQueryData(key, r.data);
      setDays(null);
      setBanner({ kind: 'success', text: r.message });
      // Every view of the deadlines follows the cycle.
      void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) });
      void qc.invalidateQueries({ queryKey: userDataKeys.season(uid) });
      void qc.invalidateQueries({ queryKey: ['checklist'] });
    },
    onError: (err) => setBanner({ kind: 'error', text: errorMessage(err) }),
  });
  const s = settings.data;
  if (!s) return null;
  const thisYear = new Date().getFullYear();
  const years = [
    ...new Set([thisYear, thisYear + 1, thisYear + 2, thisYear + 3, thisYear + 4, s.enteringYear]),
  ].sort();
  return (
    <div className="deadline-settings">
      <h3>Your cycle and reminders</h3>
      <p>
        <label htmlFor={yearId}>I start college in the fall of </label>
        <select
          id={yearId}
          value={s.enteringYear}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ enteringYear: Number(e.target.value) })}
        >
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>{' '}
        <span className="muted">
          (deadlines of the {s.cycle} cycle{s.enteringYearChosen ? '' : ', the one mostly ahead today'})
        </span>
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = parseDays(days ?? s.reminderDays.join(', '));
          if (!parsed) {
            setBanner({ kind: 'error', text: 'Write whole days, separated by commas: 30, 14, 7, 1' });
            return;
          }
          save.mutate({ reminderDays: parsed });
        }}
      >
        <label htmlFor={daysId}>Remind me this many days before each deadline: </label>
        <input
          id={daysId}
          inputMode="numeric"
          value={days ?? s.reminderDays.join(', ')}
          onChange={(e) => setDays(e.target.value)}
        />{' '}
        <button type="submit" className="secondary" disabled={save.isPending}>
          Save reminders
        </button>
      </form>
      <ActionBanner banner={banner} />
    </div>
  );
}
