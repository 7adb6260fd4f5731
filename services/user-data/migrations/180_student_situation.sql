-- Issue 48: the student's own situation, chosen by them on /profile so the "Students like you" view sorts
-- their colleges by the rate that applies to them. Both optional (null: not said), private: kept beside
-- the money profile, so account deletion and export already cover the row; never in a share link.
ALTER TABLE user_data.student_profile ADD COLUMN IF NOT EXISTS pell_eligible boolean;
ALTER TABLE user_data.student_profile ADD COLUMN IF NOT EXISTS first_generation boolean;
