import type { Note } from '@ct/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';
import { submitWrite } from '../../offline/outbox';

export function useNotes() {
  const uid = useUid();
  return useQuery({
    queryKey: userDataKeys.notes(uid),
    enabled: !!uid,
    queryFn: async ({ signal }) => (await api.getNotes({ userId: uid }, { signal })).notes,
  });
}

export interface NoteForm {
  title: string;
  content: string;
  /** YYYY-MM-DD from the date input, or '' for none. */
  date: string;
}

/** Create, update and delete; each refreshes the list and the deadlines (a note may carry one). */
export function useNoteActions() {
  const uid = useUid();
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: userDataKeys.notes(uid) });
    void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) });
  };
  /** Offline, the note waits on the device (shown in the list meanwhile) and is sent when the network is back. */
  const create = useMutation({
    // Runs offline too: the write is queued on the device rather than held by react-query in memory.
    networkMode: 'always',
    mutationFn: async (f: NoteForm) => {
      const now = new Date().toISOString();
      const note = {
        title: f.title,
        content: f.content,
        createdAt: now,
        updatedAt: now,
        deadline: f.date || null,
      };
      const r = await submitWrite(uid, 'addNote', { userId: uid, note }, `The note “${f.title}”`);
      if (r.queued)
        qc.setQueryData<Note[]>(userDataKeys.notes(uid), (list) => [
          ...(list ?? []),
          { ...note, title: f.title.trim(), id: `queued-${r.write.id}` } as Note,
        ]);
      return r;
    },
    onSuccess: (r) => !r.queued && refresh(),
  });
  const update = useMutation({
    networkMode: 'always',
    mutationFn: async ({ note, form }: { note: Note; form: NoteForm }) => {
      const r = await submitWrite(
        uid,
        'updateNote',
        {
          userId: uid,
          noteId: note.id,
          noteTitle: note.title,
          noteContent: form.content,
          deadline: form.date || null,
        },
        `Your change to the note “${note.title}”`,
      );
      if (r.queued)
        qc.setQueryData<Note[]>(userDataKeys.notes(uid), (list) =>
          list?.map((n) =>
            n.id === note.id ? { ...n, content: form.content, deadline: form.date || null } : n,
          ),
        );
      return r;
    },
    onSuccess: (r) => !r.queued && refresh(),
  });
  const remove = useMutation({
    mutationFn: async (note: Note) => api.removeNote({ userId: uid, noteId: note.id }),
    onSuccess: (reply) => {
      qc.setQueryData(userDataKeys.notes(uid), reply.data);
      void qc.invalidateQueries({ queryKey: userDataKeys.deadlines(uid) });
    },
  });
  return { create, update, remove };
}
