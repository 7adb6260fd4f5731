-- A "not found" decided while no AI provider was configured is not the college's answer: only the
-- government figures were looked at. Such a row is asked again as soon as a key is configured, instead of
-- being remembered as "not found" for a week.
ALTER TABLE colleges.major_profile ADD COLUMN IF NOT EXISTS without_ai boolean NOT NULL DEFAULT false;
-- Rows recorded before this column: the worker's own words say when no provider was configured.
UPDATE colleges.major_profile SET without_ai = true
  WHERE state = 'not_found' AND failure_reason LIKE 'No AI provider is configured%';
