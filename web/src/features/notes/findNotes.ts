import type { Note } from '@ct/contracts';
import { useSearchParams } from 'react-router';

export type NoteSort = 'newest' | 'oldest';

/** The student's search and order of their notes, as the URL keeps them (`?noteSearch=&noteSort=`). */
export interface NoteView {
  q: string;
  sort: NoteSort;
}

export function readNoteView(params: URLSearchParams): NoteView {
  return {
    q: (params.get('noteSearch') ?? '').slice(0, 100),
    sort: params.get('noteSort') === 'oldest' ? 'oldest' : 'newest',
  };
}

/** The choices of the URL and a setter writing them back in place, so back and a copied link keep them. */
export function useNoteView(): [NoteView, (change: Partial<NoteView>) => void] {
  const [params, setParams] = useSearchParams();
  const set = (change: Partial<NoteView>) =>
    setParams(
      () => {
        // The URL as it is now: react-router hands the callback the params of the last render, so two
        // changes before a render (clear the search, then pick an order) would undo the first.
        const next = new URLSearchParams(window.location.search);
        const v = { ...readNoteView(next), ...change };
        if (v.q) next.set('noteSearch', v.q);
        else next.delete('noteSearch');
        if (v.sort === 'oldest') next.set('noteSort', 'oldest');
        else next.delete('noteSort');
        return next;
      },
      { replace: true },
    );
  return [readNoteView(params), set];
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Notes whose title or text holds every word searched for, newest or oldest first. */
export function findNotes(notes: readonly Note[], view: NoteView): Note[] {
  const words = fold(view.q).split(/\s+/).filter(Boolean);
  const found = notes.filter((n) => {
    const text = fold(`${n.title} ${n.content}`);
    return words.every((w) => text.includes(w));
  });
  const sign = view.sort === 'newest' ? -1 : 1;
  return found
    .map((n, i) => ({ n, i }))
    .sort((a, b) => sign * (a.n.createdAt.localeCompare(b.n.createdAt) || a.i - b.i))
    .map(({ n }) => n);
}
