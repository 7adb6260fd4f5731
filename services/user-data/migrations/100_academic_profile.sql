-- The student's academic profile for the fit band (issue 22): SAT sections or ACT composite, unweighted
-- GPA, a yearly budget for the financial-safety check, and the colleges they apply to test-optional
-- (college keys, as user_college.college_key). Every part optional; private to the student.
CREATE TABLE user_data.academic_profile (
  user_id text PRIMARY KEY,
  sat_reading_writing integer CHECK (sat_reading_writing BETWEEN 200 AND 800 AND sat_reading_writing % 10 = 0),
  sat_math integer CHECK (sat_math BETWEEN 200 AND 800 AND sat_math % 10 = 0),
  act_composite integer CHECK (act_composite BETWEEN 1 AND 36),
  gpa numeric(3, 2) CHECK (gpa BETWEEN 0 AND 4),
  yearly_budget integer CHECK (yearly_budget BETWEEN 0 AND 500000),
  test_optional text[] NOT NULL DEFAULT '{}' CHECK (cardinality(test_optional) <= 100),
  updated_at timestamptz NOT NULL DEFAULT now()
);
