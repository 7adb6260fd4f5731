-- Suggestions are answered from an in-memory index of names and aliases (src/suggestions.ts); the
-- nearest-neighbour indexes of 003 are no longer read and only slowed writes.
DROP INDEX IF EXISTS colleges.college_normalized_name_knn;
DROP INDEX IF EXISTS colleges.college_alias_knn;

-- The index checks the table's version before answering: newest change and row count, both read from
-- this index alone (an index-only scan), with the plan cached in a function.
CREATE INDEX college_updated_at ON colleges.college (updated_at);

CREATE FUNCTION colleges.college_version()
RETURNS TABLE (at text, n integer)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT to_char((SELECT max(c.updated_at) FROM colleges.college c) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
         (SELECT count(*)::integer FROM colleges.college c2 WHERE c2.updated_at IS NOT NULL);
END $$;
