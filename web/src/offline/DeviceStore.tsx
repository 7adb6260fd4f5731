import { IsRestoringProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSession } from '../auth/session';
import { forgetDevice, restoredAlready, restoreOnce, saveQueries } from './device';
import { keepLastScreens } from './last-screen';
import { useOutbox } from './outbox';
import { OfflineBanner } from './OfflineBanner';

/**
 * Keeps the signed-in student's data on this device: restores the last data seen before the pages ask
 * the network (so a returning student, or an offline one, sees it at once), saves every answer after,
 * sends the writes made offline when the network is back, and forgets it all when the session ends.
 */
export function DeviceStore({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const { user, ended } = useSession();
  const uid = user?.uid ?? null;
  // Restored before the first render (main.tsx) when the device answered quickly: the first screen draws it.
  const [restored, setRestored] = useState<string | null>(() => (uid && restoredAlready(uid) ? uid : null));
  const last = useRef<string | null>(null);

  useEffect(() => {
    if (!uid) return;
    // Another student now (signed out and in elsewhere, before this tab heard): nothing of the one before
    // stays in this tab's cache to be drawn or saved under the new student (issue 50.8).
    if (last.current && last.current !== uid) {
      qc.clear();
      void forgetDevice(last.current);
    }
    last.current = uid;
    let live = true;
    let stops: Array<() => void> = [];
    void restoreOnce(qc, uid).then(() => {
      if (!live) return;
      stops = [saveQueries(qc, uid), keepLastScreens(qc, uid)];
      setRestored(uid);
    });
    return () => {
      live = false;
      stops.forEach((stop) => stop());
    };
  }, [uid, qc]);

  // Signed out, deleted, or ended elsewhere: nothing of the student stays on the device.
  useEffect(() => {
    if (!ended || !last.current) return;
    const gone = last.current;
    last.current = null;
    qc.clear();
    void forgetDevice(gone);
  }, [ended, qc]);

  const outbox = useOutbox(restored === uid ? uid : null);
  return (
    <IsRestoringProvider value={uid !== null && restored !== uid}>
      {children}
      <OfflineBanner outbox={outbox} />
    </IsRestoringProvider>
  );
}
