-- The weekly e-mail of deadlines (issue 32's optional digest), sent when an operator configures SMTP: one
-- row per student who turned it on (the verified address it goes to, the zone whose Monday morning it is
-- sent on, and the token of the link that stops it without signing in), and one row per digest sent,
-- claimed before it is sent, so that each week's goes once across restarts and replicas.
CREATE TABLE user_data.digest_settings (
  user_id text PRIMARY KEY,
  enabled boolean NOT NULL,
  -- null while it is off: an address is kept only while mail goes to it
  email text,
  zone text NOT NULL,
  stop_token text NOT NULL UNIQUE,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT enabled OR email IS NOT NULL)
);

CREATE TABLE user_data.digest_sent (
  user_id text NOT NULL,
  -- the Monday it is for, in the student's zone
  week date NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, week)
);

-- Rows saved while their account is being deleted must not outlive the deletion (migration 110).
CREATE TRIGGER digest_settings_not_deleted BEFORE INSERT OR UPDATE ON user_data.digest_settings
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
CREATE TRIGGER digest_sent_not_deleted BEFORE INSERT ON user_data.digest_sent
  FOR EACH ROW EXECUTE FUNCTION user_data.refuse_deleted_student_row('user_id');
