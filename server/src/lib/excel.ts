import type { ContactKind } from '@wuye/contract/team/contact';
import ExcelJS from 'exceljs';
import type { FileAnswer } from '@wuye/contract';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import { fail } from '../http/errors.js';
import { writeXlsx, type CellValue, type ProgressReport } from './xlsxWriter.js';
import type { SheetRow } from './xlsxReader.js';

/** One column of an exported sheet: a header and how to read the cell from a row. */
export interface SheetColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
  width?: number;
  /** an owner's mobile or ID number: masked in an export for an account without CONTACT_WHOLE (jobs/exports.ts) */
  contact?: ContactKind;
}

/** One sheet ready to be written: its headers, column widths and rows as cells. */
export interface Sheet {
  name: string;
  headers: string[];
  widths: number[];
  /** how many data rows cells() gives */
  rows: number;
  /** per column, the owner's contact data it holds, if any */
  contact?: Array<ContactKind | undefined>;
  cells(): Iterable<CellValue[]>;
}

/** A sheet of `rows`, each written as `columns` read it. */
export function sheetOf<T>(name: string, columns: SheetColumn<T>[], rows: readonly T[]): Sheet {
  return {
    name,
    headers: columns.map((c) => c.header),
    widths: columns.map((c) => c.width ?? Math.max(10, c.header.length * 2 + 4)),
    rows: rows.length,
    contact: columns.map((c) => c.contact),
    *cells() {
      for (const row of rows) yield columns.map((c) => c.value(row));
    },
  };
}

/**
 * Writes a sheet as an .xlsx (lib/xlsxWriter.ts): the rows are written giving the event loop a
 * turn every few hundred and compressed off the main thread, so a large workbook does not hold
 * other requests (built in one go, 75,000 owners held every other request of the server for about
 * 4 s: docs/perf/history.md#round-14).
 */
export const writeSheet = (sheet: Sheet, onProgress?: ProgressReport): Promise<Buffer> =>
  writeXlsx(sheet.name, sheet.headers, sheet.widths, sheet.cells(), onProgress);

/** A small workbook answered in the call itself (templates, import error reports); exports run as jobs (jobs/exports.ts). */
export async function xlsxFile<T>(filename: string, sheetName: string, columns: SheetColumn<T>[], rows: readonly T[]): Promise<FileAnswer> {
  const content = await writeSheet(sheetOf(sheetName, columns, rows));
  return { filename, content_base64: content.toString('base64') };
}

/** The most rows an export writes: a larger one is refused in the call, before it is queued (a filter narrows it). */
export const EXPORT_MAX = 100_000;

/**
 * Refuses an export of more than EXPORT_MAX rows before any is read. `rows` selects what the export
 * would write (any column will do, the cheapest query that finds the same rows is best) and is
 * counted no further than one past the bound: reading 100,001 joined bills only to refuse them took
 * 2 s at 50,000 rooms.
 */
export async function refuseOversizedExport<QDB, TB extends keyof QDB, O>(
  db: Kysely<DB>,
  rows: SelectQueryBuilder<QDB, TB, O>,
): Promise<void> {
  const counted = await db
    .selectFrom(
      rows
        .clearOrderBy()
        .limit(EXPORT_MAX + 1)
        .as('r'),
    )
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  if (counted.n > EXPORT_MAX) fail('导出数据超过 10 万行，请缩小筛选范围');
}

/**
 * Reads the first sheet of a workbook through ExcelJS, unbounded: what tests read exports and
 * templates back with. Uploads are read by lib/uploads.ts (bounded, in a worker thread).
 */
export async function readXlsx(base64: string): Promise<{ headers: string[]; rows: SheetRow[] }> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  } catch {
    throw new Error('文件不是有效的 Excel（.xlsx）文件');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new Error('Excel 文件中没有工作表');
  const headers: string[] = [];
  ws.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
    headers[col - 1] = cellText(cell.value).trim();
  });
  const rows: SheetRow[] = [];
  ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Record<string, string> = {};
    headers.forEach((h, i) => {
      if (h) values[h] = cellText(row.getCell(i + 1).value).trim();
    });
    if (Object.values(values).some((v) => v !== '')) rows.push({ rowNumber, values });
  });
  return { headers, rows };
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v) return String(v.text);
    if ('result' in v) return v.result === undefined ? '' : String(v.result);
    return '';
  }
  return String(v);
}

/** A per-row error report (row, column, reason) as a workbook (imports give it back). */
export function errorReport(filename: string, errors: Array<{ row: number; column: string; reason: string }>): Promise<FileAnswer> {
  return xlsxFile(
    filename,
    '错误报告',
    [
      { header: '行号', value: (e) => e.row, width: 8 },
      { header: '列', value: (e) => e.column, width: 16 },
      { header: '原因', value: (e) => e.reason, width: 60 },
    ],
    errors,
  );
}
