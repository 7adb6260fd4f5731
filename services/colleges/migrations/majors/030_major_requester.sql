-- Issue 20.3: who asked for a major profile, so each student's AI work counts against their daily quota.
CREATE TABLE colleges.major_requester (
  key text NOT NULL,
  uid text NOT NULL,
  first_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key, uid)
);
CREATE INDEX major_requester_quota ON colleges.major_requester (uid, first_at);
