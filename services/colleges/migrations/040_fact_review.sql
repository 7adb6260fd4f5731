-- No AI answer reaches another student unchecked (issue 20, ADR 0070).

-- Facts an AI answer gave about a shared college that its official pages did not vouch for (page not on
-- the College Scorecard website's domain, or not among the pages that answer cited), and every name an AI
-- answer gave: private to the students whose request gathered them, until an admin approves or drops
-- them. One row per college and kind; gathering again replaces the value and adds its students.
CREATE TABLE colleges.held_fact (
  id bigserial PRIMARY KEY,
  college_id bigint NOT NULL REFERENCES colleges.college (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('aliases', 'links', 'deadlines', 'essayPrompts', 'requirements',
    'tips', 'admissionStatistics', 'admittedStudentProfile')),
  value jsonb NOT NULL,
  source_url text,
  reason text NOT NULL,
  request_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (college_id, kind)
);
CREATE INDEX held_fact_created ON colleges.held_fact (created_at, id);

CREATE TABLE colleges.held_fact_viewer (
  fact_id bigint NOT NULL REFERENCES colleges.held_fact (id) ON DELETE CASCADE,
  uid text NOT NULL,
  PRIMARY KEY (fact_id, uid)
);
CREATE INDEX held_fact_viewer_uid ON colleges.held_fact_viewer (uid);

-- Where a name of a college comes from: 'name' (its official name, kept when the stored name tells it
-- apart from others: "Columbia College" of "Columbia College (Columbia, MO)"), 'official' (the College
-- Scorecard's aliases) or 'approved' (an admin approved it: an AI alias, a merged college's name). An
-- official name outranks any alias, and an approved name never outranks an official one (issues 20, 25).
ALTER TABLE colleges.college_alias ADD COLUMN origin text NOT NULL DEFAULT 'official'
  CHECK (origin IN ('name', 'official', 'approved'));
UPDATE colleges.college_alias a SET origin = 'name'
FROM colleges.college c
WHERE c.id = a.college_id AND lower(c.name) LIKE lower(a.alias) || ' (%';

-- Names stored before this rule whose source was not the College Scorecard (an AI answer's page, or a
-- college no government record confirms) rank below every official name and alias from now on.
UPDATE colleges.college_alias a SET origin = 'approved'
FROM colleges.college c
WHERE c.id = a.college_id
  AND (c.scorecard_id IS NULL
       OR coalesce(c.document #>> '{sources,aliases,title}', 'College Scorecard') NOT LIKE 'College Scorecard%');

-- The one name resolver (every service asks the colleges service). In order: the stored name; an
-- institution's official name it keeps as an alias; the institution a curated short name stands for
-- (`short_sid`, from data/short-names.json); a College Scorecard alias; a name an admin approved; the
-- name typed when a finished request was matched. Within a rank, the larger institution. AI names
-- waiting for review are in colleges.held_fact, never here.
CREATE FUNCTION colleges.resolve_college(n text, short_sid integer)
RETURNS TABLE (id bigint, document jsonb, created_at timestamptz, updated_at timestamptz, facts boolean, requested boolean)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT c.id, c.document, c.created_at, c.updated_at, c.facts_gathered_at IS NOT NULL,
         (EXISTS (SELECT 1 FROM colleges.ingestion_request r WHERE r.college_id = c.id)
          OR EXISTS (SELECT 1 FROM colleges.ingestion_request r WHERE r.key = c.normalized_name))
  FROM (
    SELECT c2.id, 0 AS rank FROM colleges.college c2 WHERE c2.normalized_name = n
    UNION ALL
    SELECT a.college_id, CASE a.origin WHEN 'name' THEN 1 WHEN 'official' THEN 3 ELSE 4 END
    FROM colleges.college_alias a WHERE a.normalized_alias = n
    UNION ALL
    SELECT c3.id, 2 FROM colleges.college c3 WHERE short_sid IS NOT NULL AND c3.scorecard_id = short_sid
    UNION ALL
    SELECT r.college_id, 5 FROM colleges.ingestion_request r
    WHERE r.key = n AND r.state = 'done' AND r.college_id IS NOT NULL
  ) m
  JOIN colleges.college c ON c.id = m.id
  ORDER BY m.rank, (c.document #>> '{demographics,schoolSize}')::numeric DESC NULLS LAST, c.id
  LIMIT 1;
END $$;
