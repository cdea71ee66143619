import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** A cell as an export writes it: text, a number, or empty. */
export type CellValue = string | number | null | undefined;

/** rows written between turns given back to the event loop */
const ROWS_PER_TURN = 500;
/** rows between two progress reports (an export job writes each to its jobs row) */
const ROWS_PER_REPORT = 5000;

/** Told how many data rows are written so far. */
export type ProgressReport = (rowsWritten: number) => Promise<void>;

const deflateRaw = promisify(zlib.deflateRaw);

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Characters XML 1.0 cannot carry at all (control characters other than tab and line breaks). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xmlText = (s: string) => s.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => ESCAPES[c]!);

/** 'A', 'B', … 'Z', 'AA', …: the column letters of a cell reference. */
function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Text a spreadsheet could take for a formula once the file is saved as CSV and opened again (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain signed number (a refund's -12.50) evaluates to itself: it keeps its sign without the apostrophe. */
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;

/**
 * Text as a cell shows it: one starting with =, +, -, @, a tab or a carriage return gets a leading
 * apostrophe, so owner data such as =HYPERLINK(…) stays text however the file travels on.
 */
export const cellText = (text: string): string => (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text);

function cellXml(ref: string, value: CellValue, style: string): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${style}><v>${value}</v></c>`;
  return `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${xmlText(cellText(String(value)))}</t></is></c>`;
}

function rowXml(rowNumber: number, letters: string[], values: CellValue[], style = ''): string {
  return `<row r="${rowNumber}">${values.map((v, i) => cellXml(`${letters[i]}${rowNumber}`, v, style)).join('')}</row>`;
}

/**
 * The worksheet's XML: the header row in bold (style 1), then every row, giving the event loop a
 * turn every few hundred rows so other requests are answered while a large export is written.
 */
async function sheetXml(headers: string[], widths: number[], rows: Iterable<CellValue[]>, onProgress?: ProgressReport): Promise<string> {
  const letters = headers.map((_, i) => columnLetters(i));
  const parts: string[] = [
    XML_HEAD,
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
    `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`,
    '<sheetData>',
    rowXml(1, letters, headers, ' s="1"'),
  ];
  let rowNumber = 1;
  for (const values of rows) {
    parts.push(rowXml(++rowNumber, letters, values));
    if ((rowNumber - 1) % ROWS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    if (onProgress && (rowNumber - 1) % ROWS_PER_REPORT === 0) await onProgress(rowNumber - 1);
  }
  parts.push('</sheetData></worksheet>');
  return parts.join('');
}

/** The workbook's fixed parts around its one sheet. */
function workbookParts(sheetName: string): Array<[string, string]> {
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        `<sheets><sheet name="${xmlText(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
        '</Relationships>',
    ],
    // style 0 plain, style 1 bold (the header row)
    [
      'xl/styles.xml',
      `${XML_HEAD}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
        '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
        '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        '</styleSheet>',
    ],
  ];
}

/** A ZIP archive (deflated entries, no ZIP64: an export stays far below 4 GB) of the named files. */
export async function zip(files: Array<[string, string | Buffer]>): Promise<Buffer> {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    // compressed on libuv's thread pool, not the event loop
    const packed = await deflateRaw(data);
    const crc = zlib.crc32(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // time 00:00
    local.writeUInt16LE(0x21, 12); // date 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // made by
    local.copy(entry, 6, 4, 30); // version needed … name length, as in the local header
    entry.writeUInt16LE(0, 32); // comment length
    entry.writeUInt16LE(0, 34); // disk
    entry.writeUInt16LE(0, 36); // internal attributes
    entry.writeUInt32LE(0, 38); // external attributes
    entry.writeUInt32LE(offset, 42);
    out.push(local, nameBytes, packed);
    central.push(entry, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, ...central, end]);
}

/**
 * An .xlsx of one sheet: a bold header row, then the rows, strings written inline. Written here
 * rather than by ExcelJS's streaming writer, which spent 1.2 s on 50,000 rows of 11 columns (the
 * room export at scale); this writes them in a fraction of that (docs/perf/history.md#round-16).
 * ExcelJS still reads uploads (readXlsx).
 */
export async function writeXlsx(
  sheetName: string,
  headers: string[],
  widths: number[],
  rows: Iterable<CellValue[]>,
  onProgress?: ProgressReport,
): Promise<Buffer> {
  const sheet = await sheetXml(headers, widths, rows, onProgress);
  const [types, rels, workbook, workbookRels, styles] = workbookParts(sheetName);
  return zip([types!, rels!, workbook!, workbookRels!, styles!, ['xl/worksheets/sheet1.xml', sheet]]);
}
