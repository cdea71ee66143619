import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readXlsx } from './excel.js';
import { readUpload } from './uploads.js';
import { probeUpload, readUploadedSheet, UploadRefused } from './xlsxReader.js';
import { hostileXlsx } from '../test/hostile-files.js';

async function excelJsFile(fill: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  fill(wb.addWorksheet('房屋'));
  wb.addWorksheet('说明').addRow(['不读']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('readUploadedSheet', () => {
  it('reads what ExcelJS reads: text, numbers, dates, formulas, rich text, empty cells and rows', async () => {
    const file = await excelJsFile((ws) => {
      ws.addRow(['楼栋', '单元', '房号', '面积', '日期', '公式', '备注']);
      ws.addRow(['1号楼', '1单元', 1101, 89.5, new Date(Date.UTC(2025, 0, 20)), { formula: 'D2*2', result: 179 }, ' 前后空格 ']);
      ws.addRow([]);
      ws.addRow(['2号楼', '', '13900000000', '0.10', '', '', { richText: [{ text: '粗' }, { text: '体&<>' }] }]);
      ws.addRow(['', '', '', '', '', '', '']);
      ws.getCell('B6').value = '跳过一行';
    });
    const ours = readUploadedSheet(file);
    expect(ours).toEqual(await readXlsx(file.toString('base64')));
    expect(ours.rows[0]!.values).toMatchObject({ 房号: '1101', 面积: '89.5', 日期: '2025-01-20', 公式: '179', 备注: '前后空格' });
    expect(ours.rows[1]!.values['备注']).toBe('粗体&<>');
  });

  it('refuses what is not an .xlsx', () => {
    expect(() => readUploadedSheet(Buffer.from('not a file at all, just text'))).toThrow('文件不是有效的 Excel（.xlsx）文件');
  });
});

describe('readUpload: hostile files are refused early, off the main thread', () => {
  it('a bomb that owns up to its size is refused by the first look, before any reader thread', async () => {
    const bomb = await hostileXlsx('bomb');
    expect(() => probeUpload(bomb)).toThrow(/^Excel 文件解压后超过 40 MB/);
  });

  it('a bomb that lies about its size passes the first look and is stopped at the bound in the reader', async () => {
    const bomb = await hostileXlsx('bomb');
    // every central directory entry claims 1,000 bytes once inflated
    for (let p = bomb.indexOf(0x02014b50 & 0xff); p >= 0 && p < bomb.length - 46; p = bomb.indexOf(0x50, p + 1))
      if (bomb.readUInt32LE(p) === 0x02014b50) bomb.writeUInt32LE(1000, p + 24);
    expect(() => probeUpload(bomb)).not.toThrow();
    await expect(readUpload(bomb)).rejects.toThrow(/解压后超过 40 MB/);
  });

  it('a zip bomb: a small file whose sheet inflates past the bound', async () => {
    const file = await hostileXlsx('bomb');
    expect(file.length).toBeLessThan(300_000);
    await expect(readUpload(file)).rejects.toThrow(/解压后超过 40 MB/);
  });

  it('a huge row count, a cell far to the right, a huge cell, a file too big', async () => {
    await expect(readUpload(await hostileXlsx('rows'))).rejects.toThrow('一次最多导入 20000 行，请分批导入');
    await expect(readUpload(await hostileXlsx('wide'))).rejects.toThrow(/第 2 行超过 60 列（XFD2）/);
    await expect(readUpload(await hostileXlsx('longCell'))).rejects.toThrow(/单元格超过 2000 个字符/);
    await expect(readUpload(Buffer.alloc(6 * 1024 * 1024))).rejects.toThrow('文件不能超过 5 MB，请分批导入');
  });

  it('unclosed tags cost one pass, not one per tag', async () => {
    const started = Date.now();
    await expect(readUpload(await hostileXlsx('unclosed'))).rejects.toBeInstanceOf(UploadRefused);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reads a good file the same in the worker', async () => {
    const file = await excelJsFile((ws) => {
      ws.addRow(['楼栋', '单元', '房号']);
      for (let i = 1; i <= 300; i++) ws.addRow(['1号楼', '1单元', String(100 + i)]);
    });
    const sheet = await readUpload(file);
    expect(sheet.rows).toHaveLength(300);
    expect(sheet.rows[299]).toEqual({ rowNumber: 301, values: { 楼栋: '1号楼', 单元: '1单元', 房号: '400' } });
  });
});
