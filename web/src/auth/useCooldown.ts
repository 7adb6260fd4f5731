import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A lock that releases itself after `ms` (the 60 s password-reset re-send lock). `start()` locks;
 * the timer is cleared on unmount.
 */
export function useCooldown(ms: number): { locked: boolean; start: () => void } {
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const start = useCallback(() => {
    setLocked(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      setLocked(false);
    }, ms);
  }, [ms]);
  return { locked, start };
}
