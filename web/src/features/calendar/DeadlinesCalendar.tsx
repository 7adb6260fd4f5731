import { MSG } from '@ct/contracts/messages';
import { localToday } from '@ct/contracts/planning';
import { useQuery } from '@tanstack/react-query';
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type RefObject,
} from 'react';
import Calendar from 'react-calendar';
import 'react-calendar/dist/Calendar.css';
import { api, apiText, errorMessage } from '../../api/client';
import { Countdown } from '../../components/Countdown';
import { formatCalendarDate } from '../../lib/format';
import { useUid, userDataKeys } from '../../api/keys';
import { CalendarFeedPanel } from './CalendarFeedPanel';
import { DeadlineSettingsPanel } from './DeadlineSettingsPanel';
import {
  byDay,
  dayKey,
  downloadText,
  fromAidDate,
  googleCalendarUrl,
  toCalendarDeadline,
  type CalendarDeadline,
} from './deadlines';
import { fitLabel, markerCandidates } from './marker';
import './calendar.css';
import { compareIso } from '@ct/contracts/numbers';
import { StatusBanner } from '../../components/StatusBanner';

function useDeadlines() {
  const uid = useUid();
  return useQuery({
    queryKey: userDataKeys.deadlines(uid),
    enabled: !!uid,
    queryFn: async ({ signal }) => {
      const r = await api.getDeadlines({ userId: uid }, { signal });
      if (r.message !== MSG.deadlinesFound) console.info(MSG.deadlinesNotFound);
      // The FAFSA and CSS Profile dates join the student's own deadlines, soonest first.
      return [...r.deadlines.map(toCalendarDeadline), ...(r.aidDates ?? []).map(fromAidDate)].sort((a, b) =>
        compareIso(a.date, b.date),
      );
    },
  });
}

const UPCOMING_SHOWN = 4;

/** A marker's text: 0.7rem bold (see calendar.css); never smaller, so it stays readable. */
const MARKER_REM = 0.7;
/** A marker's own padding and border, left and right together, in px. */
const MARKER_INSET = 6;

/**
 * Chooses each marker's label so it fits its day whole: the width of a day is measured once it is laid
 * out (and again when the calendar is resized or the typeface arrives), each label's words are measured
 * with the marker's font, and the first label whose words all fit on at most two lines wins (null: none
 * does). Before the first measurement, the first label.
 */
function useMarkerFit(
  wrap: RefObject<HTMLDivElement | null>,
): (candidates: readonly string[]) => string | null {
  const [box, setBox] = useState<{ width: number; rootPx: number; family: string } | null>(null);
  const [fontsVersion, setFontsVersion] = useState(0);
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const measure = () => {
      const tile = el.querySelector<HTMLElement>('.react-calendar__month-view__days__day');
      if (!tile) return;
      const cs = getComputedStyle(tile);
      const width =
        tile.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - MARKER_INSET;
      const rootPx = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      const family = getComputedStyle(el).fontFamily;
      setBox((b) =>
        b && b.width === width && b.rootPx === rootPx && b.family === family ? b : { width, rootPx, family },
      );
    };
    // The observer reports the calendar's size once it is laid out, and again on every resize: measuring
    // then reads a finished layout. Measuring here, right after the render, would force the browser to lay
    // the page out in the middle of it (22 ms of a slow phone's first screen).
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (ro) ro.observe(el);
    else measure();
    let live = true;
    void document.fonts?.ready.then(() => live && setFontsVersion((v) => v + 1));
    return () => {
      live = false;
      ro?.disconnect();
    };
  }, [wrap]);
  const canvas = useRef<CanvasRenderingContext2D | null>(null);
  return useCallback(
    (candidates: readonly string[]): string | null => {
      if (!box) return candidates[0] ?? null;
      canvas.current ??= document.createElement('canvas').getContext('2d');
      const ctx = canvas.current;
      if (!ctx) return candidates[0] ?? null;
      ctx.font = `700 ${MARKER_REM * box.rootPx}px ${box.family}`;
      return fitLabel(candidates, box.width, (t) => ctx.measureText(t).width);
    },
    // fontsVersion: measure again once the typeface has arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [box, fontsVersion],
  );
}

const SOURCE_TEXT: Record<CalendarDeadline['source'], string> = {
  college: 'College deadline',
  note: 'From your notes',
  aid: 'Financial aid',
};

function DeadlineList({ items, empty }: { items: readonly CalendarDeadline[]; empty: string }) {
  if (!items.length) return <p className="muted">{empty}</p>;
  return (
    <ul className="deadline-list">
      {items.map((d) => (
        <li key={d.key} className={d.aid ? 'aid-deadline' : undefined}>
          <div>
            <strong>{d.title}</strong>
            {d.details && d.source === 'note' ? (
              <span className="deadline-details"> — {d.details}</span>
            ) : null}
            <div className="muted small-print">
              {d.label ?? formatCalendarDate(d.date)} <Countdown date={d.date} /> ·{' '}
              {d.aid && d.source === 'college' ? 'Financial aid deadline' : SOURCE_TEXT[d.source]}
            </div>
            {d.source === 'aid' ? (
              <div className="small-print">
                {d.details}{' '}
                {d.url ? (
                  <a href={d.url} target="_blank" rel="noopener noreferrer">
                    {d.summary} site
                  </a>
                ) : null}
              </div>
            ) : null}
          </div>
          <a
            href={googleCalendarUrl(d)}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Add to Google Calendar: ${d.title}, ${formatCalendarDate(d.date)}`}
          >
            Add to Google Calendar
          </a>
        </li>
      ))}
    </ul>
  );
}

type MonthCalendarProps = {
  day: Date | null;
  days: ReturnType<typeof byDay>;
  months: Map<string, number>;
  fit: (candidates: readonly string[]) => string | null;
  onClickDay(day: Date): void;
};

/** The month grid with a marker on each day that has deadlines, and a count on each month of the year view. */
const MonthCalendar = memo(function MonthCalendar({
  day,
  days,
  months,
  fit,
  onClickDay,
}: MonthCalendarProps) {
  return (
    <Calendar
      value={day}
      onClickDay={onClickDay}
      minDetail="century"
      maxDetail="month"
      tileClassName={({ date, view }) =>
        view === 'month' && days.has(dayKey(date)) ? 'has-deadline' : undefined
      }
      tileContent={({ date, view }) => {
        if (view === 'year') {
          const n = months.get(dayKey(date).slice(0, 7));
          return n ? <span className="cal-count">{n}</span> : null;
        }
        if (view !== 'month') return null;
        const list = days.get(dayKey(date));
        if (!list?.length) return null;
        if (list.length === 1) {
          const { summary, source } = list[0]!;
          const label = fit(markerCandidates(summary, source));
          // A short label that fits on screen (a dot when none does); the full name for screen readers
          // and in the tooltip.
          return label === summary ? (
            <span className="cal-marker" title={summary}>
              {summary}
            </span>
          ) : (
            <span className={label ? 'cal-marker' : 'cal-marker dot'} title={summary}>
              <span aria-hidden="true">{label ?? '•'}</span>
              <span className="visually-hidden">{summary}</span>
            </span>
          );
        }
        return (
          <span className="cal-marker warning" title={list.map((d) => d.summary).join(', ')}>
            <span aria-hidden="true">⚠ </span>
            {list.length}
            <span className="visually-hidden"> deadlines</span>
          </span>
        );
      }}
    />
  );
});

/**
 * The deadlines calendar: a month view (drilling up to year, decade and century) with a marker on each
 * day that has deadlines — the college name or note title, or a warning with the count when there are
 * several. Clicking a day lists its deadlines; all of them download as deadlines.ics.
 */
export function DeadlinesCalendar() {
  const q = useDeadlines();
  const wrap = useRef<HTMLDivElement>(null);
  const fit = useMarkerFit(wrap);
  const [day, setDay] = useState<Date | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const deadlines = useMemo(() => q.data ?? [], [q.data]);
  const days = useMemo(() => byDay(deadlines), [deadlines]);
  const months = useMemo(() => {
    const m = new Map<string, number>();
    for (const d of deadlines) m.set(d.date.slice(0, 7), (m.get(d.date.slice(0, 7)) ?? 0) + 1);
    return m;
  }, [deadlines]);
  const selected = day ? (days.get(dayKey(day)) ?? []) : [];
  // The month grid is the costly part (42 days, each with its marker), and the deadlines, the day width
  // and the typeface arrive one after another: it is drawn as a deferred update, in short slices.
  const calendar = useDeferredValue(useMemo(() => ({ day, days, months, fit }), [day, days, months, fit]));
  // The next few deadlines from today, so the nearest ones are seen without looking for them.
  const upcoming = useMemo(() => {
    const today = localToday();
    return deadlines.filter((d) => d.date >= today).slice(0, UPCOMING_SHOWN);
  }, [deadlines]);

  // One calendar builder: the file is the server's, the same text as the subscription feed.
  const download = async () => {
    setDownloadError(null);
    try {
      const text = await apiText('deadlinesIcs', 'text/calendar');
      downloadText(text, 'deadlines.ics', 'text/calendar;charset=utf-8');
    } catch (err) {
      setDownloadError(`Could not download deadlines.ics: ${errorMessage(err)}`);
    }
  };

  return (
    <section className="card calendar-panel" aria-labelledby="calendar-title">
      <h2 id="calendar-title">Deadlines Calendar</h2>
      {q.isError ? <StatusBanner kind="error">{errorMessage(q.error)}</StatusBanner> : null}
      <div className="calendar-layout">
        <div className="calendar-wrap" aria-busy={q.isPending} ref={wrap}>
          <MonthCalendar {...calendar} onClickDay={setDay} />
        </div>
        <div className="calendar-side">
          <div className="calendar-actions">
            <button type="button" onClick={() => void download()} disabled={q.isPending || !deadlines.length}>
              Download deadlines.ics
            </button>
            <button
              type="button"
              className="secondary"
              aria-expanded={revealed}
              aria-controls="all-deadlines"
              onClick={() => setRevealed((r) => !r)}
            >
              {revealed ? 'Hide Deadlines' : 'Reveal all Deadlines'}
            </button>
          </div>
          {downloadError ? <StatusBanner kind="error">{downloadError}</StatusBanner> : null}
          <div className="day-deadlines" aria-live="polite">
            {day ? (
              <>
                <h3>Deadlines on {formatCalendarDate(dayKey(day))}</h3>
                <DeadlineList items={selected} empty={MSG.noDeadlinesForDate} />
              </>
            ) : (
              <p className="muted">Click a date to see its deadlines.</p>
            )}
          </div>
          {!q.isPending && !deadlines.length && !revealed ? (
            <p className="muted">{MSG.noDeadlinesAvailable}</p>
          ) : null}
          {upcoming.length ? (
            <section className="coming-up" aria-labelledby="coming-up-title">
              <h3 id="coming-up-title">Coming up</h3>
              <DeadlineList items={upcoming} empty={MSG.noDeadlinesAvailable} />
            </section>
          ) : null}
        </div>
      </div>
      <div id="all-deadlines" hidden={!revealed}>
        {revealed ? (
          <>
            <h3>All Deadlines</h3>
            <DeadlineList items={deadlines} empty={MSG.noDeadlinesAvailable} />
          </>
        ) : null}
      </div>
      <DeadlineSettingsPanel />
      <CalendarFeedPanel />
    </section>
  );
}
