import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/connection.js';
import { EXPORT_MAX, readXlsx, refuseOversizedExport, sheetOf, writeSheet, xlsxFile } from './excel.js';

interface Row {
  id: number;
  name: string;
  fee: string;
}

const columns = [
  { header: '编号', value: (r: Row) => r.id },
  { header: '姓名', value: (r: Row) => r.name, width: 16 },
  { header: '金额', value: (r: Row) => r.fee },
];

describe('xlsxFile', () => {
  it('writes a header row and every row, read back as written', async () => {
    const rows: Row[] = Array.from({ length: 1203 }, (_, i) => ({ id: i + 1, name: `业主${i + 1}`, fee: `${i}.50` }));
    const file = await xlsxFile('业主.xlsx', '业主', columns, rows);
    expect(file.filename).toBe('业主.xlsx');
    const sheet = await readXlsx(file.content_base64);
    expect(sheet.headers).toEqual(['编号', '姓名', '金额']);
    expect(sheet.rows).toHaveLength(1203);
    expect(sheet.rows[0]).toEqual({ rowNumber: 2, values: { 编号: '1', 姓名: '业主1', 金额: '0.50' } });
    expect(sheet.rows[1202]!.values).toEqual({ 编号: '1203', 姓名: '业主1203', 金额: '1202.50' });
  });

  it('keeps text that a spreadsheet would take for a formula as text: a leading apostrophe (CSV injection)', async () => {
    const texts = ['=HYPERLINK("http://evil.example","点我")', '+1+1', '-1+cmd|calc', '@SUM(1)', '\t=1', '-12.50', '+86', '1-2', 'a=b'];
    const file = await xlsxFile('x.xlsx', 'x', [{ header: '备注', value: (t: string) => t }], texts);
    const sheet = await readXlsx(file.content_base64);
    expect(sheet.rows.map((r) => r.values['备注'])).toEqual([
      `'=HYPERLINK("http://evil.example","点我")`,
      "'+1+1",
      "'-1+cmd|calc",
      "'@SUM(1)",
      "'\t=1",
      '-12.50',
      '+86',
      '1-2',
      'a=b',
    ]);
  });

  it('writes a sheet of headers alone when there are no rows', async () => {
    const sheet = await readXlsx((await xlsxFile('空.xlsx', '空', columns, [])).content_base64);
    expect(sheet.headers).toEqual(['编号', '姓名', '金额']);
    expect(sheet.rows).toEqual([]);
  });

  it('lets other requests run while the rows are written', async () => {
    // a callback queued for the event loop's next turn runs only when the writer gives it one
    let turns = 0;
    let stop = false;
    const tick = () => {
      if (stop) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    let turnsByLastRow = 0;
    const sheet = sheetOf('大', columns, []);
    await writeSheet({
      ...sheet,
      rows: 5000,
      *cells() {
        for (let i = 0; i < 5000; i++) yield [i, `业主${i}`, '1.00'];
        turnsByLastRow = turns;
      },
    });
    stop = true;
    // a turn every 500 rows, not all 5,000 rows in one go
    expect(turnsByLastRow).toBeGreaterThanOrEqual(9);
  });
});

describe('writeSheet', () => {
  it("reports the rows written every 5,000 rows, for an export job's progress bar", async () => {
    const rows: Row[] = Array.from({ length: 12_345 }, (_, i) => ({ id: i, name: `业主${i}`, fee: '1.00' }));
    const reported: number[] = [];
    const content = await writeSheet(sheetOf('进度', columns, rows), async (n) => {
      reported.push(n);
    });
    expect(reported).toEqual([5000, 10_000]);
    expect((await readXlsx(content.toString('base64'))).rows).toHaveLength(12_345);
  });
});

describe('refuseOversizedExport', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase(loadConfig(process.env, { dbSchema: undefined }), { memory: true });
  });
  afterAll(() => database?.close());

  const rows = (n: number) =>
    database.db.selectFrom(sql<{ n: number }>`generate_series(1, ${n}::int)`.as('g')).select(sql<number>`1`.as('one'));

  it("lets an export of up to EXPORT_MAX rows through and refuses one more, in the spec's words", async () => {
    await expect(refuseOversizedExport(database.db, rows(EXPORT_MAX))).resolves.toBeUndefined();
    await expect(refuseOversizedExport(database.db, rows(EXPORT_MAX + 1))).rejects.toThrow('导出数据超过 10 万行，请缩小筛选范围');
    await expect(refuseOversizedExport(database.db, rows(0))).resolves.toBeUndefined();
  });
});
