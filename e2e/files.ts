import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A one-sheet workbook of a header row and rows, written to a temporary file for a page to upload. */
export async function xlsxUpload(filename: string, headers: string[], rows: Array<Array<string | number>>): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(headers);
  for (const r of rows) ws.addRow(r);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'upload-')), filename);
  await wb.xlsx.writeFile(file);
  return file;
}
