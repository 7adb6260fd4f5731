-- The college cache: one row per college, its document (the API's College shape) in jsonb.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE colleges.college (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  normalized_name text NOT NULL UNIQUE,
  scorecard_id integer UNIQUE,
  city text,
  state text,
  document jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX college_normalized_name_trgm ON colleges.college USING gin (normalized_name gin_trgm_ops);

-- Aliases (and other official spellings) point at a college; several colleges may share an alias.
CREATE TABLE colleges.college_alias (
  college_id bigint NOT NULL REFERENCES colleges.college (id) ON DELETE CASCADE,
  alias text NOT NULL,
  normalized_alias text NOT NULL,
  PRIMARY KEY (normalized_alias, college_id)
);
CREATE INDEX college_alias_trgm ON colleges.college_alias USING gin (normalized_alias gin_trgm_ops);
