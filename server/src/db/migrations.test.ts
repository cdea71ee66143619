import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, 'migrations');
const files = fs.readdirSync(dir).sort();

/**
 * The numbered migrations, frozen: a new one is named by its UTC time, YYYYMMDDHHMM_<what>.sql,
 * so two branches adding a migration no longer both write 027_… (db/OWNERS.md).
 */
const NUMBERED = [
  '001_foundation.sql',
  '002_structure.sql',
  '003_structure_more.sql',
  '004_owners.sql',
  '005_fees.sql',
  '006_fees_parking_meter.sql',
  '007_perf_indexes.sql',
  '008_auth_notify.sql',
  '009_bill_notify.sql',
  '010_unpaid_by_building.sql',
  '011_bill_status_order.sql',
  '012_bills_by_building_status.sql',
  '013_payment_item_cost_type.sql',
  '014_batch_paid_count.sql',
  '015_room_move.sql',
  '016_bill_list_filters.sql',
  '017_receipt_keyword.sql',
  '018_export_files.sql',
  '019_room_title_keys.sql',
  '020_parking_label_keys.sql',
  '021_bill_amounts.sql',
  '022_receipt_number_trigrams.sql',
  '023_receipt_lines_by_cost_type.sql',
  '024_fee_bill_totals.sql',
  '025_fee_payment_totals.sql',
  '026_room_addresses.sql',
];
const STAMPED = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})_[a-z0-9]+(?:_[a-z0-9]+)*\.sql$/;
/** when timestamped names began; none is older */
const FIRST_STAMP = '202611260000';

describe('migration file names', () => {
  it('the numbered migrations 001 to 026 are all there, unchanged in name', () => {
    expect(
      files.filter((f) => /^\d{3}_/.test(f)),
      'the numbered migrations are frozen at 026: name a new one YYYYMMDDHHMM_<what>.sql, never edit or rename a merged one',
    ).toEqual(NUMBERED);
  });

  it('every other migration is named YYYYMMDDHHMM_<what>.sql (UTC), a real time not in the future', () => {
    const soon = new Date(Date.now() + 24 * 3600_000); // a day of slack for a local clock
    const bad = files
      .filter((f) => !NUMBERED.includes(f))
      .filter((f) => {
        const m = STAMPED.exec(f);
        if (!m) return true;
        const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
        const at = new Date(Date.UTC(y, mo - 1, d, h, mi));
        const real = at.getUTCMonth() === mo - 1 && at.getUTCDate() === d && h < 24 && mi < 60;
        return !real || f.slice(0, 12) < FIRST_STAMP || at > soon;
      });
    expect(bad, 'name a new migration by its UTC time, e.g. 202612011030_parking_lots.sql (not 027_…)').toEqual([]);
  });

  it('no two timestamped migrations share a time, so their order never depends on the words after it', () => {
    const stamps = files.filter((f) => STAMPED.test(f)).map((f) => f.slice(0, 12));
    const twice = stamps.filter((s, i) => stamps.indexOf(s) !== i);
    expect(twice, 'two migrations have the same time: give the newer one a later minute').toEqual([]);
  });

  it('every timestamped migration sorts after the numbered ones, as migrate() applies them', () => {
    const stamped = files.filter((f) => STAMPED.test(f));
    expect(files, 'migrations/ holds only the numbered and the timestamped .sql files').toEqual([...NUMBERED, ...stamped]);
  });
});
