-- Admins reading students' notes leave a trail (issue 20): who read whose notes, when, and how many.
-- Written in the same transaction as the read; shown to admins on the Admin page. A deleted account's
-- rows go with it (as the student read), or lose its name (as the admin who read).
CREATE TABLE user_data.note_read (
  id bigserial PRIMARY KEY,
  reader_uid text,
  student_uid text NOT NULL,
  notes integer NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX note_read_at_idx ON user_data.note_read (read_at DESC, id DESC);
CREATE INDEX note_read_student_idx ON user_data.note_read (student_uid);
CREATE INDEX note_read_reader_idx ON user_data.note_read (reader_uid);
