-- A student's deadline settings (issue 31): the fall they enter college, which sets the admission cycle
-- their deadlines are for (null: the default, the cycle whose deadlines are mostly ahead), and the days
-- before a deadline that reminders ring (null: 30, 14, 7 and 1). Private to the student (uid).
CREATE TABLE user_data.deadline_settings (
  user_id text PRIMARY KEY,
  entering_year integer CHECK (entering_year BETWEEN 2000 AND 2200),
  reminder_days integer[] CHECK (
    reminder_days IS NULL OR (cardinality(reminder_days) BETWEEN 1 AND 6 AND 0 <= ALL (reminder_days) AND 120 >= ALL (reminder_days))
  ),
  updated_at timestamptz NOT NULL DEFAULT now()
);
