-- Deletion wins every race (issue 35): the majors' requesters refuse a deleted student's row, as the other
-- tables of the schema do (../110_deleted_students.sql).
CREATE TRIGGER major_requester_not_deleted BEFORE INSERT OR UPDATE ON colleges.major_requester
  FOR EACH ROW EXECUTE FUNCTION colleges.refuse_deleted_student_row('uid');
