import { useNoteView } from './findNotes';

/** Search the notes and choose their order; kept in the URL. */
export function NotesControls({ shown, total }: { shown: number; total: number }) {
  const [view, set] = useNoteView();
  return (
    <div className="list-controls notes-controls" role="search" aria-label="Search your notes">
      <div className="list-control">
        <label htmlFor="notes-search">Search notes</label>
        <input
          id="notes-search"
          type="search"
          value={view.q}
          maxLength={100}
          autoComplete="off"
          onChange={(e) => set({ q: e.target.value })}
        />
      </div>
      <div className="list-control">
        <label htmlFor="notes-sort">Order</label>
        <select
          id="notes-sort"
          value={view.sort}
          onChange={(e) => set({ sort: e.target.value === 'oldest' ? 'oldest' : 'newest' })}
        >
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
        </select>
      </div>
      {view.q.trim() ? (
        <p className="list-count" role="status">
          {shown} of {total} notes match{' '}
          <button type="button" className="link" onClick={() => set({ q: '' })}>
            Clear search
          </button>
        </p>
      ) : null}
    </div>
  );
}
