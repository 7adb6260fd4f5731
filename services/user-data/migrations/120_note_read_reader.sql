-- The trail of admins' reads of students' notes must outlive what happens to the reader (issue 35): the
-- reader's e-mail as it was at the time of reading, and a pseudonym of the reader's uid (its SHA-256, hex:
-- the operator resolves it by hashing a uid, as with auth.deleted_account) that stays when the account is
-- deleted and `reader_uid` is cleared. Rows are kept for NOTE_READ_KEEP_DAYS, then purged.
ALTER TABLE user_data.note_read ADD COLUMN reader_email text;
ALTER TABLE user_data.note_read ADD COLUMN reader_sha256 text;
UPDATE user_data.note_read
   SET reader_sha256 = encode(sha256(convert_to(reader_uid, 'UTF8')), 'hex')
 WHERE reader_uid IS NOT NULL;
