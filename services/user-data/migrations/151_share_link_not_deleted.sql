-- A share link made while its account is being deleted must not outlive the deletion (issue 35 item 2,
-- migration 110): creating one for a deleted uid is refused inside the creating transaction. Only
-- INSERT: a view's counter update on a live link needs no check, and the deletion removes the links.
CREATE TRIGGER share_link_not_deleted BEFORE INSERT ON user_data.share_link
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
