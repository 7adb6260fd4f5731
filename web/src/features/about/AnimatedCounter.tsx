import { TIMINGS } from '../../lib/timings';
import { useEffect, useRef, useState } from 'react';
import { useReducedMotion } from '../../hooks/useReducedMotion';
import { formatWhole } from '../../lib/format';

/**
 * Counts from 0 up to `value` (in whole steps of 1) over TIMINGS.counterDurationMs, starting the first time
 * 10% of it is visible. With reduced motion it shows the value as soon as it is visible.
 */
export function AnimatedCounter({ value, label }: { value: number; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const reduced = useReducedMotion();
  const [shown, setShown] = useState(0);
  const [started, setStarted] = useState(false);

  useEffect(() => {
    const el = ref.current;
    if (!el || started) return;
    if (typeof IntersectionObserver === 'undefined') {
      setStarted(true);
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setStarted(true);
          io.disconnect();
        }
      },
      { threshold: TIMINGS.counterVisibleRatio },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [started]);

  useEffect(() => {
    if (!started) return;
    if (reduced) {
      setShown(value);
      return;
    }
    let frame = 0;
    const t0 = performance.now();
    const tick = (now: number) => {
      const progress = Math.min(1, (now - t0) / TIMINGS.counterDurationMs);
      // Whole numbers only: the counter moves in steps of 1 and lands exactly on the value.
      setShown(Math.floor(progress * value));
      if (progress < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [started, reduced, value]);

  return (
    <div className="about-counter" ref={ref}>
      <span className="about-counter-value" aria-hidden="true" data-testid="counter-value">
        {formatWhole(shown)}
      </span>
      <span className="visually-hidden">{formatWhole(value)}</span>
      <span className="about-counter-label">{label}</span>
    </div>
  );
}
