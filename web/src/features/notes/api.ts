import type { Note } from '@ct/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';

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
  const create = useMutation({
    mutationFn: async (f: NoteForm) => {
      const now = new Date().toISOString();
      return api.addNote({
        userId: uid,
        note: {
          title: f.title,
          content: f.content,
          createdAt: now,
          updatedAt: now,
          deadline: f.date || null,
        },
      });
    },
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: async ({ note, form }: { note: Note; form: NoteForm }) =>
      api.updateNote({
        userId: uid,
        noteId: note.id,
        noteTitle: note.title,
        noteContent: form.content,
        deadline: form.date || null,
      }),
    onSuccess: refresh,
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
