-- Deadline reminders pushed to a student's devices (issue 32): one row per device subscription (the
-- browser's push endpoint and keys), the student's lead times and pause, and one row per reminder sent,
-- claimed before it is sent, so that each reminder goes once across restarts and replicas.
CREATE TABLE user_data.push_subscription (
  endpoint text PRIMARY KEY,
  user_id text NOT NULL,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscription_user_idx ON user_data.push_subscription (user_id);

CREATE TABLE user_data.reminder_settings (
  user_id text PRIMARY KEY,
  lead_days integer[] NOT NULL DEFAULT '{14,7,2,1,0}',
  paused boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_data.reminder_sent (
  user_id text NOT NULL,
  -- the deadline: college, kind and due moment, as the reminder job names it
  deadline_key text NOT NULL,
  lead_days integer NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, deadline_key, lead_days)
);
