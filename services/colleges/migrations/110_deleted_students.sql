-- Deletion wins every race (issue 35), as in user-data's migration 110: the colleges schema keeps its own
-- record of deleted students (the uid only as its SHA-256), and every table that names a student refuses a
-- row of a deleted uid inside the write's own transaction, under the student's advisory lock, which the
-- deletion (`forget-student`) takes exclusively before it deletes and records.
CREATE TABLE colleges.deleted_student (
  uid_sha256 text PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now()
);

-- The one check, callable from SQL inside the write's transaction: true when the student's account was
-- deleted or is being deleted. Holds the student's lock shared until the transaction ends, so a "false"
-- stays true: the deletion waits for this transaction to end.
CREATE FUNCTION colleges.is_deleted_student(student text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF student IS NULL THEN RETURN false; END IF;
  IF NOT pg_try_advisory_xact_lock_shared(hashtextextended('colleges.student:' || student, 0)) THEN RETURN true; END IF;
  RETURN EXISTS (SELECT 1 FROM colleges.deleted_student
                 WHERE uid_sha256 = encode(sha256(convert_to(student, 'UTF8')), 'hex'));
END $$;

-- The same, refusing: SQLSTATE CTDEL (the services answer it "Your account no longer exists.", 401).
CREATE FUNCTION colleges.refuse_deleted_student(student text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF colleges.is_deleted_student(student) THEN
    RAISE EXCEPTION 'account deleted' USING ERRCODE = 'CTDEL';
  END IF;
END $$;

-- The deletion, in its own transaction: first `lock_deleted_student` (waits for the writes in flight, and
-- refuses new ones until it ends), then the rows are deleted, then `record_deleted_student` (recorded last: the
-- deletes themselves write, e.g. the per-student counts) so every later write is refused.
CREATE FUNCTION colleges.lock_deleted_student(student text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('colleges.student:' || student, 0));
$$;
CREATE FUNCTION colleges.record_deleted_student(student text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM colleges.lock_deleted_student(student);
  INSERT INTO colleges.deleted_student (uid_sha256)
  VALUES (encode(sha256(convert_to(student, 'UTF8')), 'hex'))
  ON CONFLICT (uid_sha256) DO NOTHING;
END $$;

-- The trigger: TG_ARGV[0] names the column that holds the student's uid.
CREATE FUNCTION colleges.refuse_deleted_student_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM colleges.refuse_deleted_student(to_jsonb(NEW) ->> TG_ARGV[0]);
  RETURN NEW;
END $$;

CREATE TRIGGER ingestion_requester_not_deleted BEFORE INSERT OR UPDATE ON colleges.ingestion_requester
  FOR EACH ROW EXECUTE FUNCTION colleges.refuse_deleted_student_row('uid');
CREATE TRIGGER private_college_viewer_not_deleted BEFORE INSERT OR UPDATE ON colleges.private_college_viewer
  FOR EACH ROW EXECUTE FUNCTION colleges.refuse_deleted_student_row('uid');
CREATE TRIGGER held_fact_viewer_not_deleted BEFORE INSERT OR UPDATE ON colleges.held_fact_viewer
  FOR EACH ROW EXECUTE FUNCTION colleges.refuse_deleted_student_row('uid');
