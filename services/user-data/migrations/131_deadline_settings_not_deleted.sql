-- A deadline setting saved while its account is being deleted must not outlive the deletion (issue 35
-- item 2, migration 110): refused inside the writing transaction, like every other student row.
CREATE TRIGGER deadline_settings_not_deleted BEFORE INSERT OR UPDATE ON user_data.deadline_settings
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
