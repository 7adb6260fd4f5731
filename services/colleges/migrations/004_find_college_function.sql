-- The search path's one query as a PL/pgSQL function: its plan is cached per connection, so a cache hit
-- costs no planning (planning was three quarters of the query's time).
CREATE FUNCTION colleges.find_college(n text)
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
    SELECT a.college_id, 1 FROM colleges.college_alias a WHERE a.normalized_alias = n
    UNION ALL
    SELECT r.college_id, 2 FROM colleges.ingestion_request r
    WHERE r.key = n AND r.state = 'done' AND r.college_id IS NOT NULL
  ) m
  JOIN colleges.college c ON c.id = m.id
  ORDER BY m.rank, (c.document #>> '{demographics,schoolSize}')::numeric DESC NULLS LAST, c.id
  LIMIT 1;
END $$;
