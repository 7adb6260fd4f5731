-- The season: a student's application to each college on their list (plan, status, the dates after
-- "submitted", the applicant portal) and the award letter they typed in. Keyed by the college's key, as
-- recommender: both survive a college removed and added back. Private to the student (uid).

CREATE TABLE user_data.application (
  user_id text NOT NULL,
  college_key text NOT NULL,
  plan text CHECK (plan IN ('ED', 'EA', 'REA', 'RD', 'rolling')),
  status text NOT NULL DEFAULT 'researching' CHECK (status IN ('researching', 'applying', 'submitted',
    'admitted', 'admitted-with-aid', 'deferred', 'waitlisted', 'denied', 'withdrawn', 'enrolled', 'declined')),
  submitted_on date,
  expected_decision_on date,
  decision_on date,
  reply_by date,
  deposit_due date,
  housing_due date,
  -- A link only: the product never asks for or keeps a portal password.
  portal_url text CHECK (char_length(portal_url) <= 500),
  portal_set_up boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, college_key)
);

CREATE TABLE user_data.aid_offer (
  user_id text NOT NULL,
  college_key text NOT NULL,
  -- Whole dollars a year; null: the letter does not state the cost of attendance.
  cost_of_attendance integer CHECK (cost_of_attendance >= 0),
  -- [{name, amount}] and [{kind, amount}]: the letter's lines in the student's order.
  grants jsonb NOT NULL DEFAULT '[]',
  work_study integer NOT NULL DEFAULT 0 CHECK (work_study >= 0),
  loans jsonb NOT NULL DEFAULT '[]',
  total_aid_stated integer CHECK (total_aid_stated >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, college_key)
);
