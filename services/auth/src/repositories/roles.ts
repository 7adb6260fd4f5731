import type { StaffRole } from '@ct/contracts';
import type { Queryable } from '@ct/store';

/** A staff role as stored (`presentStaffMember`). */
export interface StaffRow {
  uid: string;
  role: StaffRole;
  email: string | null;
}

/** SQL for staff roles; the only place that touches auth.staff_roles. */
export class RoleRepository {
  constructor(private readonly db: Queryable) {}

  async findRole(uid: string): Promise<StaffRole | null> {
    const r = await this.db.query<{ role: StaffRole }>('SELECT role FROM auth.staff_roles WHERE uid = $1', [
      uid,
    ]);
    return r.rows[0]?.role ?? null;
  }

  /**
   * The uid's role and when it was last granted, in whole milliseconds like `Date.now()`: Postgres keeps
   * microseconds, and a fraction would put a grant after a session started in the same millisecond.
   * Null without a role.
   */
  async findGrant(uid: string): Promise<{ role: StaffRole; grantedAtMs: number } | null> {
    const r = await this.db.query<{ role: StaffRole; granted_ms: number }>(
      `SELECT role, floor(extract(epoch FROM granted_at) * 1000)::float8 AS granted_ms
       FROM auth.staff_roles WHERE uid = $1`,
      [uid],
    );
    const row = r.rows[0];
    return row ? { role: row.role, grantedAtMs: row.granted_ms } : null;
  }

  async grantRole(uid: string, role: StaffRole, email: string | null, grantedBy: string): Promise<void> {
    await this.db.query(
      `INSERT INTO auth.staff_roles (uid, role, email, granted_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (uid) DO UPDATE SET role = EXCLUDED.role, email = EXCLUDED.email,
         granted_by = EXCLUDED.granted_by, granted_at = now()`,
      [uid, role, email, grantedBy],
    );
  }

  /** The uid whose grant recorded this e-mail (for revoking a role of a deleted account). */
  async findUidByEmail(email: string): Promise<string | null> {
    const r = await this.db.query<{ uid: string }>(
      'SELECT uid FROM auth.staff_roles WHERE lower(email) = lower($1) ORDER BY granted_at DESC LIMIT 1',
      [email],
    );
    return r.rows[0]?.uid ?? null;
  }

  /** A deleted account's name on the roles it granted is removed (the roles stay). */
  async forgetGranter(uid: string): Promise<void> {
    await this.db.query('UPDATE auth.staff_roles SET granted_by = NULL WHERE granted_by = $1', [uid]);
  }

  /** Removes the uid's role; true when there was one. */
  async revokeRole(uid: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM auth.staff_roles WHERE uid = $1', [uid])).rowCount > 0;
  }

  async listStaff(filter: {
    userId?: string | undefined;
    role?: string | undefined;
    limit: number;
    offset: number;
  }): Promise<{ total: number; rows: StaffRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.userId) {
      params.push(`%${filter.userId.replace(/[\\%_]/g, '\\$&')}%`);
      where.push(`uid ILIKE $${params.length}`);
    }
    if (filter.role) {
      params.push(filter.role);
      where.push(`role = $${params.length}`);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.staff_roles ${w}`,
      params,
    );
    const rows = await this.db.query<StaffRow>(
      `SELECT uid, role, email FROM auth.staff_roles ${w} ORDER BY uid LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { total: total.rows[0]?.n ?? 0, rows: rows.rows };
  }
}
