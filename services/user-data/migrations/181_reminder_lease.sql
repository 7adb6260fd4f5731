-- A reminder is leased while it is pushed, and claimed in reminder_sent once its push is done (issue 45's
-- peak run: a replica killed mid-pass had claimed reminders it never pushed, and they were lost). A lease
-- that runs out (its replica died) lets another replica take the reminder again; the phone shows a repeat
-- in place of the first (the notification's tag is the reminder's), so a rare repeat costs nothing and a
-- crash loses nothing.
ALTER TABLE user_data.reminder_due ADD COLUMN leased_until timestamptz;
