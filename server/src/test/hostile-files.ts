import { zip } from '../lib/xlsxWriter.js';

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
