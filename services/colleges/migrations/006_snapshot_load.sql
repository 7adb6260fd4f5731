-- The College Scorecard data this database holds: the snapshot shipped with the product (with the Common
-- App grid facts), loaded at the first start and again when a different one ships, and every
-- `npm run import:scorecard` of an official file. Colleges whose facts were gathered keep them on a reload.
CREATE TABLE colleges.snapshot_load (
  version text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('snapshot', 'import')),
  -- What was loaded, in words ("scorecard_institutions_demo.csv, 2021-22"), and its sha256
  source text NOT NULL,
  sha256 text,
  -- Release date of the government data (null when the file does not say)
  released date,
  colleges integer NOT NULL,
  ms integer NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now()
);
