import { uidSha256 } from '@ct/service-kit';
import type { Queryable } from '@ct/store';

/** A deletion as stored. */
export interface DeletedAccountRow {
  seq: string;
  uid_sha256: string;
  deleted_at: Date;
}

/** SQL for the record of deleted accounts (auth.deleted_account); the only place that touches it. */
export class DeletedAccountRepository {
  constructor(private readonly db: Queryable) {}

  /** Records (again) that the account was deleted now; tokens issued before this moment are refused. */
  async record(uid: string): Promise<void> {
    await this.db.query(
      `INSERT INTO auth.deleted_account (uid_sha256) VALUES ($1)
       ON CONFLICT (uid_sha256) DO UPDATE SET deleted_at = now(), seq = nextval(pg_get_serial_sequence('auth.deleted_account', 'seq'))`,
      [uidSha256(uid)],
    );
  }

  /** Deletions recorded after `seq`, oldest first. */
  async listAfter(seq: number, limit = 5000): Promise<DeletedAccountRow[]> {
    const r = await this.db.query<DeletedAccountRow>(
      'SELECT seq, uid_sha256, deleted_at FROM auth.deleted_account WHERE seq > $1 ORDER BY seq LIMIT $2',
      [seq, limit],
    );
    return r.rows;
  }
}
