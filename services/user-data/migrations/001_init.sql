-- A student's colleges (with their checklists), notes and private calendar link.
-- Every row is keyed by the Firebase uid; nothing here references another service's tables.

CREATE TABLE user_data.user_college (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL,
  -- The college's normalised official name, as the colleges service knows it (also the API's collegeId).
  college_key text NOT NULL,
  college_name text NOT NULL,
  -- json, not jsonb: jsonb reorders object keys, and the student sees the sections in this order.
  checklist json NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT user_college_once UNIQUE (user_id, college_key)
);
-- college.ingested refreshes every checklist of one college.
CREATE INDEX user_college_key_idx ON user_data.user_college (college_key);

CREATE TABLE user_data.note (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  title text NOT NULL,
  content text NOT NULL,
  deadline date,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The spec's update and remove calls name a note by its title, so a title is unique per student.
  CONSTRAINT note_title_once UNIQUE (user_id, title),
  CONSTRAINT note_content_max CHECK (char_length(content) <= 2000)
);
-- Lists per student in creation order (also serves the admin listing by user id).
CREATE INDEX note_user_created_idx ON user_data.note (user_id, created_at, id);

CREATE TABLE user_data.calendar_feed (
  user_id text PRIMARY KEY,
  -- SHA-256 of the token: the database never holds a usable link.
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
