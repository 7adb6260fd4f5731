-- A list entry points at its institution's College Scorecard UNITID, not only its name: two institutions
-- that share a name (or whose names change on a data reload) never swap on a student's list. Null for a
-- college without a government record, and for entries made before this column: those get their UNITID
-- the next time the college is read for them or its college.ingested event arrives, and only when the
-- stored official name is the entry's own (never through an alias).
ALTER TABLE user_data.user_college ADD COLUMN IF NOT EXISTS scorecard_id integer;
ALTER TABLE user_data.removed_college ADD COLUMN IF NOT EXISTS scorecard_id integer;
-- college.ingested refreshes every checklist of one institution.
CREATE INDEX IF NOT EXISTS user_college_scorecard_idx ON user_data.user_college (scorecard_id)
  WHERE scorecard_id IS NOT NULL;
