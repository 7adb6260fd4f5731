-- Scorecard institutions an admin deleted, or merged into a college that did not take over their
-- Scorecard id: the shipped snapshot (on a new version or admission cycle) and an operator's import
-- skip them, so an admin's decision is not undone by the next bulk load.
CREATE TABLE colleges.removed_institution (
  scorecard_id integer PRIMARY KEY,
  name text NOT NULL,
  action text NOT NULL CHECK (action IN ('deleted', 'merged')),
  merged_into text,
  removed_at timestamptz NOT NULL DEFAULT now()
);
