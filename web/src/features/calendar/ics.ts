import { LIMITS } from '@ct/contracts/messages';
import { EVENT_START_HOUR, type CalendarDeadline } from './deadlines';

/** Placeholder product id and domain, as the spec's ICS file has. */
const PRODUCT_ID = 'college-ready/deadlines';
const UID_DOMAIN = 'college-ready.local';

/**
 * RFC 5545 text for the deadlines (one-hour events), made by the `ics` library. The library is loaded only
 * when a student downloads the file, so it never weighs on the first page load.
 */
export async function deadlinesIcs(deadlines: readonly CalendarDeadline[]): Promise<string> {
  const { createEvents } = await import('ics');
  const events = deadlines.map((d) => {
    const [y, m, day] = d.date.split('-').map(Number) as [number, number, number];
    return {
      uid: `${d.key.replace(/[^A-Za-z0-9-]/g, '-')}@${UID_DOMAIN}`,
      title: d.summary,
      description: d.details,
      start: [y, m, day, EVENT_START_HOUR, 0] as [number, number, number, number, number],
      startInputType: 'local' as const,
      startOutputType: 'local' as const,
      duration: { hours: LIMITS.calendarEventHours },
      productId: PRODUCT_ID,
    };
  });
  const { error, value } = createEvents(events, { productId: PRODUCT_ID, calName: 'College deadlines' });
  if (error || value === null) throw error ?? new Error('Could not build the calendar file');
  return value;
}

/** Saves text as a file the browser downloads. */
export function downloadText(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
