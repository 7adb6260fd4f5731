-- A college the student removed from their list, with its checklist, kept for 30 days so that Undo (or
-- adding it again) brings the progress back. One row per student and college: removing it again replaces
-- the row. Rows older than 30 days are purged by the service (and never restored, even before the purge).

CREATE TABLE user_data.removed_college (
  user_id text NOT NULL,
  college_key text NOT NULL,
  college_name text NOT NULL,
  checklist json NOT NULL,
  -- When it was first added: a restored college goes back to its place in the list.
  added_at timestamptz NOT NULL,
  removed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, college_key)
);
-- The purge deletes by age.
CREATE INDEX removed_college_removed_at_idx ON user_data.removed_college (removed_at);
