-- Majors number their own migrations (ids "majors/NNN_..."). This one was colleges' 050_major_profiles:
-- IF NOT EXISTS makes it a no-op on a database that applied it under that id.
-- Major profiles: one row per (college, major), first a request, then the gathered profile (the cache).
-- `key` is "<normalised official college name>|<CIP code>"; the ingest-major job id is derived from it,
-- so a thousand students asking for the same major at the same college make one request and one job.
CREATE TABLE IF NOT EXISTS colleges.major_profile (
  key text PRIMARY KEY,
  college_name text NOT NULL,
  normalized_college text NOT NULL,
  cip text NOT NULL,
  major text NOT NULL,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'not_found', 'failed')),
  stage text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  failure_reason text,
  -- The MajorProfile document the API returns, once done
  profile jsonb,
  requested_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  gathered_at timestamptz
);
-- Admin listing: majors with the colleges that have a profile for them
CREATE INDEX IF NOT EXISTS major_profile_done_by_cip ON colleges.major_profile (cip, college_name) WHERE state = 'done';
-- Requests to re-enqueue after a restart
CREATE INDEX IF NOT EXISTS major_profile_pending ON colleges.major_profile (updated_at) WHERE state IN ('queued', 'running');
