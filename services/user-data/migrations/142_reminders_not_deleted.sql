-- Push subscriptions, reminder settings and idempotent-write ids saved while their account is being
-- deleted must not outlive the deletion (issue 35 item 2, migration 110): refused in the writing
-- transaction. reminder_sent rows are written by the job, which only reads live students.
CREATE TRIGGER push_subscription_not_deleted BEFORE INSERT OR UPDATE ON user_data.push_subscription
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER reminder_settings_not_deleted BEFORE INSERT OR UPDATE ON user_data.reminder_settings
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER idempotent_write_not_deleted BEFORE INSERT OR UPDATE ON user_data.idempotent_write
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('uid');
CREATE TRIGGER reminder_sent_not_deleted BEFORE INSERT ON user_data.reminder_sent
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
