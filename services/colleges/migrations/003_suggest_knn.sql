-- Nearest-neighbour search by trigram word similarity (ORDER BY query <<-> name LIMIT n) for suggestions:
-- GiST answers the closest names directly instead of scoring every candidate a short query matches.
-- A 128-byte signature (default 12) makes the index far less lossy for names, so fewer rows are rechecked.
CREATE INDEX college_normalized_name_knn ON colleges.college USING gist (normalized_name gist_trgm_ops (siglen = 128));
CREATE INDEX college_alias_knn ON colleges.college_alias USING gist (normalized_alias gist_trgm_ops (siglen = 128));
