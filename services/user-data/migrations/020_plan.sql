-- What a student plans with beyond their list: a private money profile, essay drafts (with earlier
-- versions) and recommenders per college. Every row is keyed by the Firebase uid.

-- Home state and household income band, both optional, set once on /profile.
CREATE TABLE user_data.student_profile (
  user_id text PRIMARY KEY,
  home_state text CHECK (home_state ~ '^[A-Z]{2}$'),
  income_band text CHECK (income_band IN ('0-30000', '30001-48000', '48001-75000', '75001-110000', '110001+')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One draft per prompt text (essayPromptKey: the prompt's words without case, punctuation or word-limit
-- notes), so prompts that read the same across the student's colleges share one draft.
CREATE TABLE user_data.essay_draft (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  prompt_key text NOT NULL,
  prompt text NOT NULL,
  body text NOT NULL,
  word_count integer NOT NULL,
  -- Every save names the revision it started from; a stale one is refused instead of overwriting.
  revision integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT essay_draft_body_max CHECK (char_length(body) <= 20000)
);
-- Keys can be as long as a prompt, beyond what a btree entry holds: unique on their hash.
CREATE UNIQUE INDEX essay_draft_once ON user_data.essay_draft (user_id, md5(prompt_key));

-- Earlier texts of a draft: kept before a restore, on request, and at most every 10 minutes while writing.
CREATE TABLE user_data.essay_draft_version (
  id uuid PRIMARY KEY,
  draft_id uuid NOT NULL REFERENCES user_data.essay_draft (id) ON DELETE CASCADE,
  body text NOT NULL,
  word_count integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX essay_draft_version_draft_idx ON user_data.essay_draft_version (draft_id, created_at DESC);

-- Who writes a recommendation for one of the student's colleges, when they were asked, when it was sent.
-- Keyed by the college's key (as user_college), not its row: it survives a college removed and added back.
CREATE TABLE user_data.recommender (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  college_key text NOT NULL,
  who text NOT NULL CHECK (char_length(who) BETWEEN 1 AND 120),
  asked_on date,
  submitted_on date,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recommender_user_college_idx ON user_data.recommender (user_id, college_key, created_at);
