-- One export at a time per student (issue 35): the export that runs holds a claim, renewed while it
-- streams and dropped when it ends; a claim not renewed for USER_DATA_LIMITS.exportLeaseSeconds (its
-- process died mid-export) lapses. Shared by every replica; the uid only as its SHA-256.
CREATE TABLE user_data.export_running (
  uid_sha256 text PRIMARY KEY,
  claim uuid NOT NULL,
  renewed_at timestamptz NOT NULL DEFAULT now()
);
