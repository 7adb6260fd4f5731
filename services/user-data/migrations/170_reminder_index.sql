-- The reminder index (issue 45): what each student's reminders are and when each falls due, kept current
-- when what they depend on changes, so a pass reads only what is due (one indexed query) instead of
-- working out every student's deadlines every 15 minutes.
--
-- reminder_due: one row per reminder still to send (student, deadline, lead time) with its moment and what
-- the phone shows. A pass takes the due rows (FOR UPDATE SKIP LOCKED: any number of replicas take their
-- own shards), claims each in reminder_sent (at most once, as before) and deletes them, in one transaction.
CREATE TABLE user_data.reminder_due (
  user_id text NOT NULL,
  deadline_key text NOT NULL,
  lead_days integer NOT NULL,
  due_at timestamptz NOT NULL,
  payload jsonb NOT NULL,
  PRIMARY KEY (user_id, deadline_key, lead_days)
);
CREATE INDEX reminder_due_at_idx ON user_data.reminder_due (due_at);

-- reminder_stale: students whose reminders must be worked out again (their list, plans, checklists'
-- deadlines, deadline settings, home state, devices or reminder settings changed). A refresh leases a
-- few (leased_until), replaces their reminder_due rows, and removes the mark unless it was set again since.
CREATE TABLE user_data.reminder_stale (
  user_id text PRIMARY KEY,
  since timestamptz NOT NULL DEFAULT clock_timestamp(),
  leased_until timestamptz
);
CREATE INDEX reminder_stale_since_idx ON user_data.reminder_stale (since);

CREATE FUNCTION user_data.mark_reminders_stale() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  student text := COALESCE(to_jsonb(NEW) ->> TG_ARGV[0], to_jsonb(OLD) ->> TG_ARGV[0]);
BEGIN
  IF student IS NOT NULL THEN
    INSERT INTO user_data.reminder_stale (user_id) VALUES (student)
    ON CONFLICT (user_id) DO UPDATE SET since = clock_timestamp(), leased_until = NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER user_college_reminders_stale AFTER INSERT OR UPDATE OR DELETE ON user_data.user_college
  FOR EACH ROW EXECUTE FUNCTION user_data.mark_reminders_stale('user_id');
CREATE TRIGGER application_reminders_stale AFTER INSERT OR UPDATE OR DELETE ON user_data.application
  FOR EACH ROW EXECUTE FUNCTION user_data.mark_reminders_stale('user_id');
CREATE TRIGGER deadline_settings_reminders_stale AFTER INSERT OR UPDATE OR DELETE ON user_data.deadline_settings
  FOR EACH ROW EXECUTE FUNCTION user_data.mark_reminders_stale('user_id');
CREATE TRIGGER student_profile_reminders_stale AFTER INSERT OR UPDATE OR DELETE ON user_data.student_profile
  FOR EACH ROW EXECUTE FUNCTION user_data.mark_reminders_stale('user_id');
CREATE TRIGGER push_subscription_reminders_stale AFTER INSERT OR UPDATE OR DELETE ON user_data.push_subscription
  FOR EACH ROW EXECUTE FUNCTION user_data.mark_reminders_stale('user_id');
CREATE TRIGGER reminder_settings_reminders_stale AFTER INSERT OR UPDATE OR DELETE ON user_data.reminder_settings
  FOR EACH ROW EXECUTE FUNCTION user_data.mark_reminders_stale('user_id');

-- Students who had devices before the index: worked out at the first pass.
INSERT INTO user_data.reminder_stale (user_id)
  SELECT DISTINCT user_id FROM user_data.push_subscription ON CONFLICT DO NOTHING;
