import ExcelJS from 'exceljs';

/** An uploaded workbook as a page sends it (file_base64): one sheet of headers and rows. */
export async function workbookBase64(
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
  sheet = 'Sheet1',
): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  ws.addRow([...headers]);
  for (const r of rows) ws.addRow([...r]);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}
