import type { EssayDraft } from '@ct/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { useUid } from '../../api/keys';
import { fetchDrafts, saveDraft } from './drafts';

/** Typing pauses this long before a draft is saved. */
export const AUTOSAVE_DELAY_MS = 1000;
/** A save that failed is tried again after this long. */
const RETRY_MS = 5000;

export type SaveStatus = 'idle' | 'dirty' | 'saving' | 'saved' | 'error' | 'conflict';

/** Text typed but not yet saved, kept in this browser so a reload or a closed tab loses nothing. */
interface Backup {
  text: string;
  /** The revision the text was written on */
  baseRevision: number;
}

const backupKey = (uid: string, key: string) => `college-ready:essay-draft:${uid}:${key}`;

function readBackup(k: string): Backup | null {
  try {
    const raw = localStorage.getItem(k);
    return raw ? (JSON.parse(raw) as Backup) : null;
  } catch {
    return null;
  }
}

function writeBackup(k: string, b: Backup | null): void {
  try {
    if (b) localStorage.setItem(k, JSON.stringify(b));
    else localStorage.removeItem(k);
  } catch {
    /* storage full or blocked: the server copy is all there is */
  }
}

/**
 * Autosave of one draft: saves after a pause in typing (one save at a time, the newest text last), keeps
 * unsaved text in this browser until the server has it, tries again after a failure, and refuses to
 * overwrite a newer copy saved elsewhere (`conflict`: the student chooses).
 */
export function useAutosave(prompt: string, promptKey: string, draft: EssayDraft | undefined) {
  const uid = useUid();
  const qc = useQueryClient();
  const storeKey = backupKey(uid, promptKey);
  const [text, setTextState] = useState(draft?.body ?? '');
  const [status, setStatus] = useState<SaveStatus>(draft ? 'saved' : 'idle');
  const [error, setError] = useState<string | null>(null);
  const [draftId, setDraftId] = useState<string | null>(draft?.id ?? null);
  /** An unsaved text of this browser written on an older revision than the server's */
  const [staleBackup, setStaleBackup] = useState<Backup | null>(null);
  const [restored, setRestored] = useState(false);
  const revision = useRef(draft?.revision ?? 0);
  const latest = useRef(text);
  const saved = useRef(draft?.body ?? '');
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current);
    if (inFlight.current) {
      await inFlight.current;
      if (latest.current !== saved.current) return flush();
      return;
    }
    const body = latest.current;
    if (body === saved.current && (revision.current > 0 || body === '')) {
      setStatus(revision.current > 0 ? 'saved' : 'idle');
      return;
    }
    setStatus('saving');
    const run = (async () => {
      try {
        const d = await saveDraft(qc, uid, { prompt, body, baseRevision: revision.current });
        revision.current = d.revision;
        saved.current = body;
        setDraftId(d.id);
        setError(null);
        if (latest.current === body) {
          writeBackup(storeKey, null);
          setStatus('saved');
        } else {
          writeBackup(storeKey, { text: latest.current, baseRevision: d.revision });
          setStatus('dirty');
          timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
        }
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          setStatus('conflict');
          setError(err.message);
        } else {
          setStatus('error');
          setError(errorMessage(err));
          timer.current = setTimeout(() => void flush(), RETRY_MS);
        }
      }
    })();
    inFlight.current = run;
    try {
      await run;
    } finally {
      inFlight.current = null;
    }
  }, [prompt, qc, storeKey, uid]);

  /** The student typed: remember the text here at once, save it after a pause. */
  const setText = useCallback(
    (next: string) => {
      latest.current = next;
      setTextState(next);
      setRestored(false);
      writeBackup(storeKey, { text: next, baseRevision: revision.current });
      if (status !== 'conflict') {
        setStatus('dirty');
        clearTimeout(timer.current);
        timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
      }
    },
    [flush, status, storeKey],
  );

  /** Replaces the text with one the server holds (nothing to save). */
  const adopt = useCallback(
    (d: EssayDraft) => {
      revision.current = d.revision;
      saved.current = d.body;
      latest.current = d.body;
      setTextState(d.body);
      setDraftId(d.id);
      setError(null);
      writeBackup(storeKey, null);
      setStatus('saved');
    },
    [storeKey],
  );

  // Text this browser never got to save (a reload, a closed tab) comes back.
  useEffect(() => {
    const b = readBackup(storeKey);
    if (!b) return;
    if (b.text === (draft?.body ?? '')) {
      writeBackup(storeKey, null);
      return;
    }
    if (b.baseRevision === (draft?.revision ?? 0)) {
      latest.current = b.text;
      setTextState(b.text);
      setRestored(true);
      setStatus('dirty');
      timer.current = setTimeout(() => void flush(), 0);
    } else {
      setStaleBackup(b);
    }
    // Once, when the editor opens: later changes come from this hook itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Leaving the page or closing the editor: save what is pending.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden' && latest.current !== saved.current) void flush();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      clearTimeout(timer.current);
      if (latest.current !== saved.current) void flush();
    };
  }, [flush]);

  /** After a conflict: the newer copy becomes the text (this browser's is dropped). */
  const loadNewer = useCallback(async () => {
    const fresh = (await fetchDrafts(uid)).find((d) => d.promptKey === promptKey);
    if (fresh) adopt(fresh);
  }, [adopt, promptKey, uid]);

  /** After a conflict, or to use this browser's older text: it wins, and the other is kept as a version. */
  const keepMine = useCallback(
    async (mine: string = latest.current) => {
      const fresh = (await fetchDrafts(uid)).find((d) => d.promptKey === promptKey);
      try {
        const d = await saveDraft(qc, uid, {
          prompt,
          body: mine,
          baseRevision: fresh?.revision ?? 0,
          keepVersion: true,
        });
        adopt({ ...d, body: mine });
        setStaleBackup(null);
      } catch (err) {
        setStatus(err instanceof ApiError && err.status === 409 ? 'conflict' : 'error');
        setError(errorMessage(err));
      }
    },
    [adopt, prompt, promptKey, qc, uid],
  );

  /** Keeps the text as it is now as a version (saving it first). */
  const saveVersion = useCallback(async () => {
    await flush();
    if (latest.current !== saved.current) return;
    const d = await saveDraft(qc, uid, {
      prompt,
      body: saved.current,
      baseRevision: revision.current,
      keepVersion: true,
    });
    revision.current = d.revision;
  }, [flush, prompt, qc, uid]);

  /** Puts an earlier version back; what it replaces is kept as a version. */
  const restore = useCallback(
    async (body: string) => {
      await flush();
      const d = await saveDraft(qc, uid, { prompt, body, baseRevision: revision.current, keepVersion: true });
      adopt({ ...d, body });
    },
    [adopt, flush, prompt, qc, uid],
  );

  const discardBackup = useCallback(() => {
    writeBackup(storeKey, null);
    setStaleBackup(null);
  }, [storeKey]);

  return {
    text,
    setText,
    status,
    error,
    draftId,
    restored,
    staleBackup,
    loadNewer,
    keepMine,
    saveVersion,
    restore,
    discardBackup,
  };
}
