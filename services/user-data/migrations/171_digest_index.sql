-- The weekly e-mail's index (issue 45): when each student's next weekly e-mail is due, so a pass reads
-- only the students whose Monday 8 am has come (one indexed query) instead of every student who turned
-- it on, every 15 minutes. As reminder_due (migration 170) does for push reminders.
--
-- digest_due: one row per student the e-mail is on for. `due_at` is the moment the pass looks at the
-- student next: their next Monday 8 am, set by the pass from their zone; or '-infinity' ("look at the
-- next pass"), set here when a setting the e-mail depends on changes. A pass takes the rows due
-- (FOR UPDATE SKIP LOCKED: replicas take disjoint batches), works out from the student's zone which week
-- is due, claims that week in digest_sent (once per student and week, as before) and moves `due_at` to
-- the next Monday, all in one transaction. The claim, not this row, is what keeps an e-mail from going
-- twice: looking at a student early or again sends nothing already claimed.
CREATE TABLE user_data.digest_due (
  user_id text PRIMARY KEY,
  due_at timestamptz NOT NULL,
  -- when the relay last refused the student's e-mail (its claim was given back and it is due again): a
  -- pass that started before then does not take it again, so the next pass tries it, not a tight loop
  failed_at timestamptz
);
CREATE INDEX digest_due_at_idx ON user_data.digest_due (due_at);

-- The settings that decide it: on or off, the address (null while off), the zone. Turning it off (the
-- settings, the stop link) or forgetting the account removes the row; turning it on, or a new address or
-- zone, makes it due at the next pass, which works out the moment in the new zone.
CREATE FUNCTION user_data.digest_due_follows_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM user_data.digest_due WHERE user_id = OLD.user_id;
  ELSIF NOT NEW.enabled OR NEW.email IS NULL THEN
    DELETE FROM user_data.digest_due WHERE user_id = NEW.user_id;
  ELSE
    INSERT INTO user_data.digest_due (user_id, due_at) VALUES (NEW.user_id, '-infinity')
    ON CONFLICT (user_id) DO UPDATE SET due_at = '-infinity';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER digest_settings_due AFTER INSERT OR DELETE OR UPDATE OF enabled, email, zone
  ON user_data.digest_settings
  FOR EACH ROW EXECUTE FUNCTION user_data.digest_due_follows_settings();

-- Students who turned it on before the index: looked at by the first pass.
INSERT INTO user_data.digest_due (user_id, due_at)
  SELECT user_id, '-infinity' FROM user_data.digest_settings WHERE enabled AND email IS NOT NULL
  ON CONFLICT DO NOTHING;
