import { addNote, getNotes, INPUT_MSG, LIMITS, MSG, removeNote, updateNote } from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { isRealDate } from '../checklist.ts';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentNote } from '../presenters.ts';
import type { NoteRef } from '../repositories/notes.ts';

/** '' and null mean "no date"; undefined means "not sent". A date must name a real day. */
function noteDate(d: string | null | undefined): string | null | undefined {
  if (d === undefined) return undefined;
  if (d === null || d === '') return null;
  if (!isRealDate(d)) throw new AppError('VALIDATION_ERROR', INPUT_MSG.noteDate);
  return d;
}

function checkContent(content: string, missingMessage: string): void {
  if (!content.trim()) throw new AppError('VALIDATION_ERROR', missingMessage);
  if (content.length > LIMITS.noteContentMax) throw new AppError('VALIDATION_ERROR', MSG.noteTooLong);
}

function noteRef(noteId: string | undefined, noteTitle: string | undefined): NoteRef | null {
  if (noteId) return { id: noteId };
  if (noteTitle?.trim()) return { title: noteTitle.trim() };
  return null;
}

/** The student's notes: at most 30, content at most 2,000 characters, an optional deadline date. */
export function noteRoutes({ notes }: Deps): Implementation[] {
  return [
    implement(getNotes, async (request) => {
      const uid = requireUser(request);
      const list = (await notes.listNotes(uid)).map(presentNote);
      return { success: true, message: MSG.notesFoundForUser, notes: list, data: list };
    }),

    implement(addNote, async (request) => {
      const uid = requireUser(request);
      const { note } = request.body;
      const title = note.title.trim();
      if (!title) throw new AppError('VALIDATION_ERROR', MSG.createNoteMissing);
      checkContent(note.content, MSG.createNoteMissing);
      const deadline = noteDate(note.deadline) ?? null;
      const added = await notes.addNote(uid, { title, content: note.content, deadline }, LIMITS.notesPerUser);
      if (added === 'full') throw new AppError('LIMIT_REACHED', UD_MSG.tooManyNotes);
      if (added === 'exists') throw new AppError('CONFLICT', UD_MSG.noteTitleTaken(title));
      return { success: true, message: MSG.noteAdded, data: presentNote(added) };
    }),

    implement(updateNote, async (request) => {
      const uid = requireUser(request);
      const b = request.body;
      const ref = noteRef(b.noteId, b.noteTitle);
      if (!ref) throw new AppError('VALIDATION_ERROR', MSG.updateNoteMissing);
      checkContent(b.noteContent, MSG.updateNoteMissing);
      const deadline = noteDate(b.deadline);
      const updated = await notes.updateNote(uid, ref, {
        content: b.noteContent,
        ...(deadline !== undefined ? { deadline } : {}),
      });
      if (!updated) throw new AppError('NOT_FOUND', UD_MSG.noteNotFound);
      return { success: true, message: MSG.noteUpdated, data: presentNote(updated) };
    }),

    implement(removeNote, async (request) => {
      const uid = requireUser(request);
      const ref = noteRef(request.body.noteId, request.body.noteTitle);
      if (!ref) throw new AppError('VALIDATION_ERROR', UD_MSG.noteRemoveRefMissing);
      if (!(await notes.removeNote(uid, ref))) throw new AppError('NOT_FOUND', UD_MSG.noteNotFound);
      const left = await notes.listNotes(uid);
      return { success: true, message: UD_MSG.noteRemoved, data: left.map(presentNote) };
    }),
  ];
}
