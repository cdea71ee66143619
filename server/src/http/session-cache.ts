/** What authenticate reads for a token: the session, its account and its community's end date. */
export interface SessionRow {
  token_hash: string;
  id: number;
  kind: 'console' | 'board' | 'charge';
  member_id: number | null;
  side: 'community' | 'group';
  rid: number | null;
  expires_at: Date;
  ended_at: Date | null;
  end_reason: string | null;
  last_seen_at: Date;
  /** a head office's session in a community it entered */
  as_admin: boolean;
  account_id: number;
  username: string;
  name: string;
  sys_type: 'property' | 'merchant' | 'leader';
  group_id: number;
  roles: string[];
  permissions: string[];
  status: string;
  password_reset: boolean;
  password_expired: boolean;
  end_time: string | null;
  /** the session's community's closed modules (docs/product.md#community-modules) */
  modules_off: string[];
}

const MAX_ENTRIES = 20_000;

/**
 * Live sessions remembered for a few seconds by the token as sent (only one the database has
 * answered for is ever kept), so a read call costs one query instead of two.
 * Staleness is bounded three ways: every committed write through the dispatcher clears it
 * (logout, password change, region switch and renewal are all writes), on PostgreSQL a trigger
 * notifies every process when sessions, accounts or communities change (008_auth_notify.sql),
 * and entries expire after `ttlMs` regardless.
 */
export class SessionCache {
  private entries = new Map<string, { row: SessionRow; at: number }>();
  private enabled: boolean;

  constructor(private readonly ttlMs: number) {
    this.enabled = ttlMs > 0;
  }

  get(token: string): SessionRow | undefined {
    if (!this.enabled) return undefined;
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (Date.now() - hit.at > this.ttlMs) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.row;
  }

  set(token: string, row: SessionRow): void {
    if (!this.enabled) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { row, at: Date.now() });
  }

  clear(): void {
    this.entries.clear();
  }

  /** While the cross-process notifications are not heard, nothing is cached. */
  setEnabled(on: boolean): void {
    this.enabled = on && this.ttlMs > 0;
    if (!this.enabled) this.clear();
  }
}

export const AUTH_CHANNEL = 'wuye_auth';
