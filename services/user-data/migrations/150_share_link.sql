-- Read-only share links for a parent or counselor (issue 33). Only the SHA-256 of a token is kept; the
-- token is shown to the student once. `scope` names what the link shows beyond the list of colleges.
-- `display_name` and `email` are copied at creation (the page is public and has no identity to ask):
-- `email` only when the student chose to share it. A view window counts views a minute for the per-link
-- rate limit. Rows go with the account (delete-my-data) and are listed by export-my-data.
CREATE TABLE user_data.share_link (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  label text NOT NULL,
  scope text[] NOT NULL,
  display_name text NOT NULL,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_viewed_at timestamptz,
  view_count integer NOT NULL DEFAULT 0,
  window_start timestamptz NOT NULL DEFAULT now(),
  window_views integer NOT NULL DEFAULT 0
);
CREATE INDEX share_link_user_idx ON user_data.share_link (user_id, created_at DESC);
