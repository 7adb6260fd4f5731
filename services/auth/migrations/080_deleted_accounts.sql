-- Deletion is final (issue 20): the record of deleted accounts that the gateway checks on every request,
-- so a token issued before the deletion is refused at once, in every process. A uid is kept only as its
-- SHA-256; `seq` lets each gateway fetch only what it has not seen.
CREATE TABLE auth.deleted_account (
  uid_sha256 text PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  seq bigserial NOT NULL UNIQUE
);
