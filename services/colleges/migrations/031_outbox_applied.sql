-- Issue 20.4 (ADR 0070): an event stays in the outbox until every subscriber has applied it. A published
-- event whose delivery the queue lost (Redis wiped) is published again to the subscribers that lack it.
ALTER TABLE colleges.outbox ADD COLUMN applied_at timestamptz;
CREATE INDEX outbox_unapplied ON colleges.outbox (id) WHERE sent_at IS NOT NULL AND applied_at IS NULL;
