-- No one can poison the shared cache (ADR 0070).

-- Who asked for each ingestion request. Requests are deduplicated by normalised name, so one row per
-- student and name: the daily quota of new names counts these, and a private result is shown to them.
CREATE TABLE colleges.ingestion_requester (
  key text NOT NULL REFERENCES colleges.ingestion_request (key) ON DELETE CASCADE,
  uid text NOT NULL,
  -- 'new-name': a name the cache did not know, gathered for this student (counts towards the quota);
  -- 'joined': a name someone else had asked for already; 'enrichment': a cached
  -- college's facts from its own pages
  kind text NOT NULL CHECK (kind IN ('new-name', 'joined', 'enrichment')),
  first_at timestamptz NOT NULL DEFAULT now(),
  last_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key, uid)
);
CREATE INDEX ingestion_requester_quota ON colleges.ingestion_requester (uid, first_at) WHERE kind = 'new-name';

-- An admin deleted what this request produced: asking again shows the request's reason instead of
-- gathering the name again (the admin's retry clears it).
ALTER TABLE colleges.ingestion_request ADD COLUMN removed_by_admin_at timestamptz;

-- A college no government record confirms and whose official website does not agree with the name
-- typed: private to the students who asked, until an admin approves, merges or deletes it. Kept apart
-- from colleges.college, so it can reach no suggestion, listing, essays grid or name of anyone else.
CREATE TABLE colleges.private_college (
  id bigserial PRIMARY KEY,
  -- The ingestion request's key (the normalised name typed)
  key text NOT NULL UNIQUE,
  requested_name text NOT NULL,
  name text NOT NULL,
  normalized_name text NOT NULL,
  website text,
  document jsonb NOT NULL,
  review_reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX private_college_name ON colleges.private_college (normalized_name);
CREATE INDEX private_college_created ON colleges.private_college (created_at, id);

CREATE TABLE colleges.private_college_viewer (
  college_id bigint NOT NULL REFERENCES colleges.private_college (id) ON DELETE CASCADE,
  uid text NOT NULL,
  PRIMARY KEY (college_id, uid)
);
CREATE INDEX private_college_viewer_uid ON colleges.private_college_viewer (uid);

-- AI calls per minute, summed over the last hour for the circuit breaker every worker shares.
CREATE TABLE colleges.ai_call (
  minute timestamptz PRIMARY KEY,
  calls integer NOT NULL
);

-- Transactional outbox: events written in the same transaction as the change they announce, published
-- by a relay (after each commit, at start and on a timer) and marked sent. At least once; subscribers
-- deduplicate by event id.
CREATE TABLE colleges.outbox (
  id bigserial PRIMARY KEY,
  event text NOT NULL,
  event_id text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX outbox_unsent ON colleges.outbox (id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent ON colleges.outbox (sent_at) WHERE sent_at IS NOT NULL;
