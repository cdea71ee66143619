import zlib from 'node:zlib';

/**
 * Hostile .xlsx uploads, as an attacker makes them by hand (issue 33, item 2): each is a valid
 * workbook with the room import's headers, so only the reader's bounds stand in the way.
 * - bomb: about 200 KB that inflate to 200 MB (a sheet padded with blanks)
 * - rows: 200,000 data rows (12 MB of XML, 180 KB zipped)
 * - wide: one cell in the last column (XFD), the sheet's extent 16,384 columns wide
 * - longCell: 20,000 rows that each show one shared string of 100,000 characters (a 2 GB payload once read)
 * - unclosed: 200,000 tags that never close
 */
export type HostileKind = 'bomb' | 'rows' | 'wide' | 'longCell' | 'unclosed';

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const headerRow =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>楼栋</t></is></c><c r="B1" t="inlineStr"><is><t>单元</t></is></c><c r="C1" t="inlineStr"><is><t>房号</t></is></c></row>';
const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

export async function hostileXlsx(kind: HostileKind): Promise<Buffer> {
  const open = `${HEAD}<worksheet xmlns="${MAIN}"><sheetData>${headerRow}`;
  const close = '</sheetData></worksheet>';
  let sheet: Buffer;
  let shared: string | undefined;
  if (kind === 'bomb') {
    sheet = Buffer.concat([Buffer.from(open), Buffer.alloc(200 * 1024 * 1024, 0x20), Buffer.from(close)]);
  } else if (kind === 'rows') {
    const rows: string[] = [];
    for (let r = 2; r <= 200_001; r++)
      rows.push(`<row r="${r}">${cell(`A${r}`, '1号楼')}${cell(`B${r}`, '1单元')}${cell(`C${r}`, String(r))}</row>`);
    sheet = Buffer.from(open + rows.join('') + close);
  } else if (kind === 'wide') {
    sheet = Buffer.from(`${open}<row r="2">${cell('A2', '1号楼')}${cell('XFD2', 'x')}</row>${close}`);
  } else if (kind === 'longCell') {
    shared = `<sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t>${'长'.repeat(100_000)}</t></si></sst>`;
    const rows: string[] = [];
    for (let r = 2; r <= 20_001; r++) rows.push(`<row r="${r}"><c r="A${r}" t="s"><v>0</v></c><c r="C${r}" t="s"><v>0</v></c></row>`);
    sheet = Buffer.from(open + rows.join('') + close);
  } else {
    sheet = Buffer.from(open + '<row r="2"><c r="A2">'.repeat(200_000) + close);
  }
  const rels =
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
    (shared
      ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
      : '');
  const parts: Array<[string, Buffer]> = [
    [
      '[Content_Types].xml',
      Buffer.from(
        `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          (shared
            ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            : '') +
          '</Types>',
      ),
    ],
    [
      '_rels/.rels',
      Buffer.from(
        `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
          '</Relationships>',
      ),
    ],
    [
      'xl/workbook.xml',
      Buffer.from(
        `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
          '<sheets><sheet name="房屋" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      Buffer.from(`${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`),
    ],
    ['xl/worksheets/sheet1.xml', sheet],
    ...(shared ? ([['xl/sharedStrings.xml', Buffer.from(shared)]] as Array<[string, Buffer]>) : []),
  ];
  return zip(parts);
}

/** A plain ZIP of deflated entries. */
function zip(files: Array<[string, Buffer]>): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const packed = zlib.deflateRawSync(data, { level: 9 });
    const nameBytes = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(zlib.crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    local.copy(entry, 6, 4, 30);
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
