-- The essays service's own copy of what it needs: colleges that have prompts (filled from the
-- college.ingested event and the Common App / UC seed), their prompts, and example essays per prompt.

-- A college, or an application platform whose prompts serve many colleges (Common App, UC).
CREATE TABLE essays.college (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  normalized_name text NOT NULL UNIQUE,
  -- Normalised aliases, so a prompt lookup by another official spelling finds the college
  normalized_aliases text[] NOT NULL DEFAULT '{}',
  kind text NOT NULL DEFAULT 'college' CHECK (kind IN ('college', 'application')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX college_aliases ON essays.college USING gin (normalized_aliases);

CREATE TABLE essays.prompt (
  id bigserial PRIMARY KEY,
  college_id bigint NOT NULL REFERENCES essays.college (id) ON DELETE CASCADE,
  position integer NOT NULL,
  text text NOT NULL,
  -- md5 of the normalised text: example essays belong to the prompt's text, whichever college asks it
  prompt_key text NOT NULL,
  word_limit integer,
  word_min integer,
  category text NOT NULL,
  source_url text,
  note text,
  UNIQUE (college_id, prompt_key)
);
CREATE INDEX prompt_by_key ON essays.prompt (prompt_key);

CREATE TABLE essays.example_essay (
  id bigserial PRIMARY KEY,
  prompt_key text NOT NULL,
  title text,
  body text NOT NULL,
  origin text NOT NULL CHECK (origin IN ('ai', 'admin')),
  -- The admin who added it, or the model that wrote it
  added_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX example_essay_by_prompt ON essays.example_essay (prompt_key, id);

-- One generation request per prompt text: the examples are written once, then served from the table.
CREATE TABLE essays.example_request (
  prompt_key text PRIMARY KEY,
  prompt_text text NOT NULL,
  word_limit integer,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'unavailable')),
  failure_reason text,
  attempts integer NOT NULL DEFAULT 0,
  requested_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
