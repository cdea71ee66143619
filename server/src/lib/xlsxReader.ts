import zlib from 'node:zlib';

/**
 * Reads the first sheet of an uploaded .xlsx with every size bounded while it reads: the upload's
 * bytes, the zip's entries (each inflated no further than its bound, so a small file that inflates
 * to gigabytes is refused after the bound, not after the gigabytes), the rows, the columns and each
 * cell's length. Only the parts a sheet needs are inflated (workbook, its relations, shared strings,
 * styles for dates, the first sheet). A file over a bound is refused with a message for the user
 * (UploadRefused). ExcelJS, which read uploads before, builds an object per cell of the sheet's
 * whole extent: a 546 KB file took 4.6 GB and 83 s of the one event loop.
 *
 * Cells read as ExcelJS's readXlsx gave them (lib/excel.ts): text trimmed, numbers as JavaScript
 * writes them, dates as YYYY-MM-DD, formulas as their cached result, errors as empty.
 */

export interface UploadLimits {
  /** bytes of the .xlsx itself */
  fileBytes: number;
  /** bytes of one part once inflated (the sheet, the shared strings) */
  partBytes: number;
  /** data rows (below the header) */
  rows: number;
  /** columns of a cell reference (A = 1) */
  columns: number;
  /** characters of one cell */
  cellChars: number;
}

export const UPLOAD_LIMITS: UploadLimits = {
  fileBytes: 5 * 1024 * 1024,
  partBytes: 40 * 1024 * 1024,
  rows: 20_000,
  columns: 60,
  cellChars: 2000,
};

/** An upload refused for its content; the message is for the user. */
export class UploadRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadRefused';
  }
}

export interface SheetRow {
  /** the row number as Excel shows it (header is row 1) */
  rowNumber: number;
  /** cell text by header */
  values: Record<string, string>;
}

export interface ReadSheet {
  headers: string[];
  rows: SheetRow[];
}

const MB = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
const NOT_EXCEL = '文件不是有效的 Excel（.xlsx）文件';

interface ZipEntry {
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The zip's central directory: entry name -> where its data is. */
function zipEntries(buf: Buffer): Map<string, ZipEntry> {
  // the end-of-central-directory record sits in the last 22 bytes plus at most a 64 KB comment
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new UploadRefused(NOT_EXCEL);
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  if (count > 10_000) throw new UploadRefused('Excel 文件内部的部件过多，请另存为普通的 .xlsx 后重新上传');
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new UploadRefused(NOT_EXCEL);
    const nameLength = buf.readUInt16LE(p + 28);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLength).replace(/^\//, '');
    entries.set(name, {
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      offset: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return entries;
}

const inflatedTooBig = (limit: number) => new UploadRefused(`Excel 文件解压后超过 ${MB(limit)}，请删除多余的行、列和格式后重新上传`);

/** One part inflated, never past `limit` bytes whatever its header claims. */
function inflatePart(buf: Buffer, entries: Map<string, ZipEntry>, name: string, limit: number): string | undefined {
  const e = entries.get(name);
  if (!e) return undefined;
  const tooBig = () => inflatedTooBig(limit);
  if (e.size > limit) throw tooBig();
  if (e.offset + 30 > buf.length || buf.readUInt32LE(e.offset) !== 0x04034b50) throw new UploadRefused(NOT_EXCEL);
  const start = e.offset + 30 + buf.readUInt16LE(e.offset + 26) + buf.readUInt16LE(e.offset + 28);
  const data = buf.subarray(start, start + e.compressedSize);
  if (e.method === 0) {
    if (data.length > limit) throw tooBig();
    return data.toString('utf8');
  }
  if (e.method !== 8) throw new UploadRefused(NOT_EXCEL);
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: limit }).toString('utf8');
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig();
    throw new UploadRefused(NOT_EXCEL);
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.includes('&')
    ? s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) => {
        if (e[0] === '#') {
          const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
          return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
        }
        return ENTITIES[e] ?? m;
      })
    : s;

/**
 * The elements `<tag …>…</tag>` (or `<tag …/>`) of `xml` in order, scanning forward only: a file
 * whose tags never close costs one pass, not a pass per tag (a lazy regular expression would read
 * to the end of the text again for every unclosed tag).
 */
function* elements(xml: string, tag: string): Generator<{ attrs: string; body: string }> {
  const open = `<${tag}`;
  const close = `</${tag}>`;
  let at = 0;
  for (;;) {
    const start = xml.indexOf(open, at);
    if (start < 0) return;
    const next = xml.charCodeAt(start + open.length);
    // the tag itself, not one whose name only starts the same (<c> against <col>)
    if (next !== 32 && next !== 62 && next !== 47 && next !== 9 && next !== 10 && next !== 13) {
      at = start + open.length;
      continue;
    }
    const gt = xml.indexOf('>', start);
    if (gt < 0) throw new UploadRefused(NOT_EXCEL);
    if (xml.charCodeAt(gt - 1) === 47) {
      yield { attrs: xml.slice(start + open.length, gt - 1), body: '' };
      at = gt + 1;
      continue;
    }
    const end = xml.indexOf(close, gt);
    if (end < 0) throw new UploadRefused(NOT_EXCEL);
    yield { attrs: xml.slice(start + open.length, gt), body: xml.slice(gt + 1, end) };
    at = end + close.length;
  }
}

/** The text of an <si> or <is>: its <t> runs (phonetic runs left out), as Excel shows it. */
const runsText = (xml: string) => {
  // phonetic runs (<rPh>) come after the text's own runs
  const phonetic = xml.indexOf('<rPh');
  let out = '';
  for (const t of elements(phonetic < 0 ? xml : xml.slice(0, phonetic), 't')) out += unescapeXml(t.body);
  return out;
};

const attrPatterns = new Map<string, RegExp>();
/** An attribute's value in a tag's attribute text. */
const attr = (attrs: string, name: string) => {
  let re = attrPatterns.get(name);
  if (!re) attrPatterns.set(name, (re = new RegExp(`(?:^|\\s)${name}="([^"]*)"`)));
  return re.exec(attrs)?.[1];
};

/** Number formats Excel shows as dates (built-in ids) and custom codes with date parts. */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);
const isDateCode = (code: string) =>
  /[ymdhs]/i.test(
    code
      .replace(/"[^"]*"/g, '')
      .replace(/\[[^\]]*\]/g, '')
      .replace(/\\./g, ''),
  ) && !/^general$/i.test(code);

/** Style index -> true when the cell's number is a date. */
function dateStyles(styles: string | undefined): boolean[] {
  if (!styles) return [];
  const custom = new Map<number, string>();
  for (const f of elements(styles, 'numFmt')) custom.set(Number(attr(f.attrs, 'numFmtId')), unescapeXml(attr(f.attrs, 'formatCode') ?? ''));
  const xfs = elements(styles, 'cellXfs').next().value?.body ?? '';
  return [...elements(xfs, 'xf')].map((xf) => {
    const id = Number(attr(xf.attrs, 'numFmtId') ?? 0);
    return DATE_FORMAT_IDS.has(id) || (custom.has(id) && isDateCode(custom.get(id)!));
  });
}

/** The first sheet's part name, from the workbook and its relations. */
function firstSheetPath(workbook: string | undefined, rels: string | undefined): string {
  const sheet = workbook ? elements(workbook, 'sheet').next().value : undefined;
  const rid = sheet && attr(sheet.attrs, 'r:id');
  if (rid && rels) {
    for (const r of elements(rels, 'Relationship')) {
      if (attr(r.attrs, 'Id') !== rid) continue;
      const target = attr(r.attrs, 'Target') ?? '';
      return target.startsWith('/') ? target.slice(1) : `xl/${target}`.replace(/\/[^/]+\/\.\.\//g, '/');
    }
  }
  return 'xl/worksheets/sheet1.xml';
}

/** 'A' -> 1, 'AB' -> 28: the column of a cell reference; 0 when it has none. */
function columnOf(ref: string | undefined): number {
  const letters = ref ? /^[A-Z]+/.exec(ref)?.[0] : undefined;
  if (!letters || letters.length > 3) return letters ? Number.MAX_SAFE_INTEGER : 0;
  let n = 0;
  for (const c of letters) n = n * 26 + (c.charCodeAt(0) - 64);
  return n;
}

const columnName = (n: number) => {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
};

/** Excel's day number (1900 system) as YYYY-MM-DD, as ExcelJS's Date read back in UTC. */
const serialDate = (serial: number) => new Date(Math.round((serial - 25569) * 86_400_000)).toISOString().slice(0, 10);

/**
 * The cheap first look, on the caller's thread: refuses what is too big, not a zip at all, or a
 * part whose directory entry owns up to more than the bound once inflated (its directory is read,
 * nothing inflated), so the plainest bombs never cost a reader thread. A part that lies about its
 * size is still stopped at the bound by the reader.
 */
export function probeUpload(file: Buffer, limits: UploadLimits = UPLOAD_LIMITS): void {
  if (file.length > limits.fileBytes) throw new UploadRefused(`文件不能超过 ${MB(limits.fileBytes)}，请分批导入`);
  if (file.length < 22) throw new UploadRefused(NOT_EXCEL);
  for (const [name, e] of zipEntries(file)) if (name.endsWith('.xml') && e.size > limits.partBytes) throw inflatedTooBig(limits.partBytes);
}

/**
 * Reads the upload's first sheet: the header row's texts and every non-empty data row by header.
 * Throws UploadRefused with a message for the user when the file is not an .xlsx or passes a bound.
 */
export function readUploadedSheet(file: Buffer, limits: UploadLimits = UPLOAD_LIMITS): ReadSheet {
  probeUpload(file, limits);
  const entries = zipEntries(file);
  const part = (name: string) => inflatePart(file, entries, name, limits.partBytes);
  const sheetPath = firstSheetPath(part('xl/workbook.xml'), part('xl/_rels/workbook.xml.rels'));
  const sheet = part(sheetPath);
  if (sheet === undefined) throw new UploadRefused(entries.size ? 'Excel 文件中没有工作表' : NOT_EXCEL);
  const shared: string[] = [];
  const sst = part('xl/sharedStrings.xml');
  if (sst) for (const si of elements(sst, 'si')) shared.push(runsText(si.body));
  const dates = dateStyles(part('xl/styles.xml'));

  let headers: string[] | undefined;
  const rows: SheetRow[] = [];
  let nextRow = 1;
  for (const row of elements(sheet, 'row')) {
    const rowNumber = Number(attr(row.attrs, 'r') ?? nextRow);
    nextRow = rowNumber + 1;
    const cells: string[] = [];
    let nextColumn = 1;
    for (const c of elements(row.body, 'c')) {
      const attrs = c.attrs;
      const ref = attr(attrs, 'r');
      const column = ref ? columnOf(ref) : nextColumn;
      nextColumn = column + 1;
      if (column > limits.columns) {
        throw new UploadRefused(`第 ${rowNumber} 行超过 ${limits.columns} 列（${ref ?? columnName(column)}），请删除多余的列后重新上传`);
      }
      const body = c.body;
      const type = attr(attrs, 't') ?? 'n';
      const v = elements(body, 'v').next().value?.body;
      let text = '';
      if (type === 's') text = v === undefined ? '' : (shared[Number(v)] ?? '');
      else if (type === 'inlineStr') text = runsText(elements(body, 'is').next().value?.body ?? '');
      else if (type === 'str') text = unescapeXml(v ?? '');
      else if (type === 'b') text = v === undefined ? '' : v === '1' ? 'true' : 'false';
      else if (type === 'e') text = '';
      else if (v !== undefined && v !== '') {
        const n = Number(v);
        if (!Number.isFinite(n)) text = unescapeXml(v);
        else text = dates[Number(attr(attrs, 's') ?? 0)] ? serialDate(n) : String(n);
      }
      if (text.length > limits.cellChars) {
        throw new UploadRefused(`第 ${rowNumber} 行 ${ref ?? columnName(column)} 单元格超过 ${limits.cellChars} 个字符，请修改后重新上传`);
      }
      cells[column - 1] = text.trim();
    }
    if (!headers) {
      headers = Array.from({ length: cells.length }, (_, i) => cells[i] ?? '');
      continue;
    }
    const values: Record<string, string> = {};
    headers.forEach((h, i) => {
      if (h) values[h] = cells[i] ?? '';
    });
    if (!Object.values(values).some((x) => x !== '')) continue;
    if (rows.length >= limits.rows) throw new UploadRefused(`一次最多导入 ${limits.rows} 行，请分批导入`);
    rows.push({ rowNumber, values });
  }
  return { headers: headers ?? [], rows };
}
