-- Issue 35.4: each student's share of the hourly AI allowance. Every piece of AI work a student's request
-- starts is booked against a clock hour: at most a share of the hour per student, the hour's allowance in
-- all, part of it kept for students' first request of the day. Work that does not fit its hour is booked
-- into the first hour it fits, and its job waits until that hour starts (`not_before`).
CREATE TABLE colleges.ai_booking (
  id bigserial PRIMARY KEY,
  uid text NOT NULL,
  hour timestamptz NOT NULL,
  -- Booked from the reserve for first requests of the day (the general part of the hour was full).
  reserve boolean NOT NULL DEFAULT false,
  -- What it was booked for: the ingestion request's key, or the major profile's.
  work text NOT NULL,
  booked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ai_booking_hour ON colleges.ai_booking (hour, uid);
CREATE INDEX ai_booking_uid ON colleges.ai_booking (uid, booked_at);

-- A request whose AI work waits for a later hour: its job runs from then on (the sweep keeps the wait).
ALTER TABLE colleges.ingestion_request ADD COLUMN not_before timestamptz;
