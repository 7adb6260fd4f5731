-- Issue 20.3: every kind of AI work counts against a per-student quota. Background enrichment of a cached
-- college is counted by its requester rows (kind 'enrichment'); major profiles: majors/030.
CREATE INDEX ingestion_requester_enrichment_quota ON colleges.ingestion_requester (uid, first_at)
  WHERE kind = 'enrichment';
