-- One row per student with data, and how many notes and list entries they have, kept by triggers in the
-- same transaction as the change. The admin listings page through students and count them from here:
-- counting distinct users over 100,000 notes on every page was the slow part.

CREATE TABLE user_data.student (
  -- "C" collation: user ids are opaque, and byte order sorts (and pages) them far faster.
  user_id text COLLATE "C" PRIMARY KEY,
  notes integer NOT NULL DEFAULT 0 CHECK (notes >= 0),
  colleges integer NOT NULL DEFAULT 0 CHECK (colleges >= 0)
);
CREATE INDEX student_with_notes_idx ON user_data.student (user_id) WHERE notes > 0;
CREATE INDEX student_with_colleges_idx ON user_data.student (user_id) WHERE colleges > 0;

INSERT INTO user_data.student (user_id, notes, colleges)
SELECT user_id, sum(notes)::int, sum(colleges)::int FROM (
  SELECT user_id, count(*) AS notes, 0 AS colleges FROM user_data.note GROUP BY user_id
  UNION ALL
  SELECT user_id, 0, count(*) FROM user_data.user_college GROUP BY user_id
) t GROUP BY user_id;

CREATE FUNCTION user_data.count_student_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
  uid text := CASE TG_OP WHEN 'INSERT' THEN NEW.user_id ELSE OLD.user_id END;
BEGIN
  IF TG_TABLE_NAME = 'note' THEN
    INSERT INTO user_data.student (user_id, notes) VALUES (uid, greatest(delta, 0))
    ON CONFLICT (user_id) DO UPDATE SET notes = user_data.student.notes + delta;
  ELSE
    INSERT INTO user_data.student (user_id, colleges) VALUES (uid, greatest(delta, 0))
    ON CONFLICT (user_id) DO UPDATE SET colleges = user_data.student.colleges + delta;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER note_counts AFTER INSERT OR DELETE ON user_data.note
  FOR EACH ROW EXECUTE FUNCTION user_data.count_student_rows();
CREATE TRIGGER user_college_counts AFTER INSERT OR DELETE ON user_data.user_college
  FOR EACH ROW EXECUTE FUNCTION user_data.count_student_rows();
