import { countdownText, daysBetween, localToday } from '@ct/contracts/planning';

/**
 * How far a day is from today, in the student's own time zone: "in 12 days", "today", "tomorrow", and for
 * a day gone by "Passed · 3 days ago" (marked, so a past deadline never reads as one to meet).
 */
export function Countdown({ date, today = localToday() }: { date: string; today?: string }) {
  const days = daysBetween(today, date);
  if (!Number.isFinite(days)) return null;
  const kind = days < 0 ? 'past' : days <= 7 ? 'soon' : 'later';
  return (
    <span className={`countdown countdown-${kind}`} data-countdown={kind}>
      {days < 0 ? `Passed · ${countdownText(date, today)}` : countdownText(date, today)}
    </span>
  );
}
