-- An AI booking made while its student's account is being deleted must not outlive the deletion (issue 35
-- item 2, migration 110): refused inside the booking's transaction, like every other row naming a student.
CREATE TRIGGER ai_booking_not_deleted BEFORE INSERT ON colleges.ai_booking
  FOR EACH ROW EXECUTE FUNCTION colleges.refuse_deleted_student_row('uid');
