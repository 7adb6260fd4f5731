-- Deletion wins every race (issue 35): a write already past the gateway's check when the account is
-- deleted must not land after the deletion. Each service keeps its own record of deleted students (the
-- uid only as its SHA-256) and every table that holds a student's rows refuses a row of a deleted uid,
-- inside the write's own transaction:
--   * a write takes the student's advisory lock SHARED (writers do not wait for each other), then checks
--     the record; the deletion takes the same lock EXCLUSIVE, deletes the rows, then records the uid.
--   * A write that got in first commits before the deletion starts deleting, so its rows are deleted; a
--     write that comes while the deletion runs is refused at once (it only TRIES the lock: waiting for it
--     while holding a row the deletion wants would deadlock); one that comes later sees the record.
-- The check is a trigger, so no write path (routes, jobs, future tables) can forget it: a new table keyed
-- by a student adds `CREATE TRIGGER ... EXECUTE FUNCTION user_data.refuse_deleted_student_row('<column>')`.
CREATE TABLE user_data.deleted_student (
  uid_sha256 text PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now()
);

-- The one check, callable from SQL inside the write's transaction: true when the student's account was
-- deleted or is being deleted. Holds the student's lock shared until the transaction ends, so a "false"
-- stays true: the deletion waits for this transaction to end.
CREATE FUNCTION user_data.is_deleted_student(student text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF student IS NULL THEN RETURN false; END IF;
  IF NOT pg_try_advisory_xact_lock_shared(hashtextextended('user_data.student:' || student, 0)) THEN RETURN true; END IF;
  RETURN EXISTS (SELECT 1 FROM user_data.deleted_student
                 WHERE uid_sha256 = encode(sha256(convert_to(student, 'UTF8')), 'hex'));
END $$;

-- The same, refusing: SQLSTATE CTDEL (the services answer it "Your account no longer exists.", 401).
CREATE FUNCTION user_data.refuse_deleted_student(student text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF user_data.is_deleted_student(student) THEN
    RAISE EXCEPTION 'account deleted' USING ERRCODE = 'CTDEL';
  END IF;
END $$;

-- The deletion, in its own transaction: first `lock_deleted_student` (waits for the writes in flight, and
-- refuses new ones until it ends), then the rows are deleted, then `record_deleted_student` (recorded last: the
-- deletes themselves write, e.g. the per-student counts) so every later write is refused.
CREATE FUNCTION user_data.lock_deleted_student(student text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('user_data.student:' || student, 0));
$$;
CREATE FUNCTION user_data.record_deleted_student(student text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM user_data.lock_deleted_student(student);
  INSERT INTO user_data.deleted_student (uid_sha256)
  VALUES (encode(sha256(convert_to(student, 'UTF8')), 'hex'))
  ON CONFLICT (uid_sha256) DO NOTHING;
END $$;

-- The trigger: TG_ARGV[0] names the column that holds the student's uid.
CREATE FUNCTION user_data.refuse_deleted_student_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM user_data.refuse_deleted_student(to_jsonb(NEW) ->> TG_ARGV[0]);
  RETURN NEW;
END $$;

CREATE TRIGGER user_college_not_deleted BEFORE INSERT OR UPDATE ON user_data.user_college
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER note_not_deleted BEFORE INSERT OR UPDATE ON user_data.note
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER calendar_feed_not_deleted BEFORE INSERT OR UPDATE ON user_data.calendar_feed
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER student_not_deleted BEFORE INSERT OR UPDATE ON user_data.student
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER removed_college_not_deleted BEFORE INSERT OR UPDATE ON user_data.removed_college
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER student_profile_not_deleted BEFORE INSERT OR UPDATE ON user_data.student_profile
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER essay_draft_not_deleted BEFORE INSERT OR UPDATE ON user_data.essay_draft
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER recommender_not_deleted BEFORE INSERT OR UPDATE ON user_data.recommender
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER application_not_deleted BEFORE INSERT OR UPDATE ON user_data.application
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER aid_offer_not_deleted BEFORE INSERT OR UPDATE ON user_data.aid_offer
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER academic_profile_not_deleted BEFORE INSERT OR UPDATE ON user_data.academic_profile
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
-- An admin's reading of notes is not refused for one student deleted meanwhile: that row is left out.
CREATE FUNCTION user_data.skip_deleted_student_read() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF user_data.is_deleted_student(NEW.student_uid) THEN RETURN NULL; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER note_read_not_deleted BEFORE INSERT ON user_data.note_read
  FOR EACH ROW EXECUTE FUNCTION user_data.skip_deleted_student_read();

-- A draft's versions hang on the draft: a version of a deleted student's draft is refused through it.
CREATE FUNCTION user_data.refuse_deleted_student_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM user_data.refuse_deleted_student((SELECT user_id FROM user_data.essay_draft WHERE id = NEW.draft_id));
  RETURN NEW;
END $$;
CREATE TRIGGER essay_draft_version_not_deleted BEFORE INSERT ON user_data.essay_draft_version
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_version();
