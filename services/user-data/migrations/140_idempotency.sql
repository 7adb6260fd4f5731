-- Writes a phone queued offline carry an id (header Idempotency-Key): the first time one arrives it is
-- applied and its reply kept here; the same id again gets the kept reply and changes nothing (issue 32).
-- A row whose write failed is removed, so the write may be tried again. Rows older than a month go.
CREATE TABLE user_data.idempotent_write (
  uid text NOT NULL,
  key text NOT NULL,
  route text NOT NULL,
  status integer,
  reply jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (uid, key)
);
CREATE INDEX idempotent_write_created_idx ON user_data.idempotent_write (created_at);
