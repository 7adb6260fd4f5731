import type { Db } from '@ct/store';

const UID_HASH = `encode(sha256(convert_to($1, 'UTF8')), 'hex')`;

/** SQL for the claims of running exports (migration 111): one export at a time per student. */
export class ExportClaimRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims the student's export; false while another export of theirs holds a claim renewed within
   * `leaseSeconds`.
   */
  async claim(userId: string, claim: string, leaseSeconds: number): Promise<boolean> {
    const r = await this.db.query(
      `INSERT INTO user_data.export_running (uid_sha256, claim) VALUES (${UID_HASH}, $2)
       ON CONFLICT (uid_sha256) DO UPDATE SET claim = EXCLUDED.claim, renewed_at = now()
       WHERE user_data.export_running.renewed_at < now() - make_interval(secs => $3)
       RETURNING 1`,
      [userId, claim, leaseSeconds],
    );
    return r.rowCount > 0;
  }

  /** The export is still running: its claim holds for another lease. */
  async renew(userId: string, claim: string): Promise<void> {
    await this.db.query(
      `UPDATE user_data.export_running SET renewed_at = now() WHERE uid_sha256 = ${UID_HASH} AND claim = $2`,
      [userId, claim],
    );
  }

  async release(userId: string, claim: string): Promise<void> {
    await this.db.query(
      `DELETE FROM user_data.export_running WHERE uid_sha256 = ${UID_HASH} AND claim = $2`,
      [userId, claim],
    );
  }
}
