-- Prefix lookups for suggestions (LIKE 'abc%' needs text_pattern_ops outside the C collation).
CREATE INDEX college_normalized_name_prefix ON colleges.college (normalized_name text_pattern_ops);
CREATE INDEX college_alias_prefix ON colleges.college_alias (normalized_alias text_pattern_ops);
CREATE INDEX college_alias_college ON colleges.college_alias (college_id);

-- When the college facts (deadlines, prompts, requirements...) were gathered; null for a college known only
-- from the bulk import of government data: its facts are gathered the first time a student searches for it.
ALTER TABLE colleges.college ADD COLUMN facts_gathered_at timestamptz;
UPDATE colleges.college SET facts_gathered_at = created_at;

-- One ingestion request per normalised college name: a thousand students asking for the same college
-- make one request and one job. The row is the source of truth; the queue job can be rebuilt from it.
CREATE TABLE colleges.ingestion_request (
  key text PRIMARY KEY,
  name text NOT NULL,
  scorecard_id integer,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  stage text NOT NULL DEFAULT 'queued'
    CHECK (stage IN ('queued', 'government-data', 'college-facts', 'saving', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  failure_reason text,
  last_error text,
  college_id bigint REFERENCES colleges.college (id) ON DELETE SET NULL,
  college_name text,
  request_count integer NOT NULL DEFAULT 1,
  requested_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX ingestion_request_state ON colleges.ingestion_request (state, updated_at);
CREATE INDEX ingestion_request_college ON colleges.ingestion_request (college_id);
