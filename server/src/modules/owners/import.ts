import ExcelJS from 'exceljs';
import { MEMBER_IMPORT_HEADERS, MEMBER_IMPORT_MAX_ROWS, type FileAnswer, type MemberImportResult } from '@wuye/contract';
import { fail } from '../../http/errors.js';
import { enqueueSheetImport } from '../../lib/sheet-import.js';
import { defineMethod } from '../../http/registry.js';
import { errorReport } from '../../lib/excel.js';
import { MEMBER_MANAGERS } from './access.js';
import { MEMBER_IMPORT_KIND } from './import-job.js';

const REQUIRED_HEADERS = ['楼栋', '单元', '房号', '姓名', '手机号'];

const memberimporttemplate = defineMethod('memberimporttemplate', {
  side: 'community',
  roles: MEMBER_MANAGERS,
  writes: false,
  summary: '住户导入模板（.xlsx）：表头、示例与填写说明',
  async handler(): Promise<FileAnswer> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('住户');
    ws.columns = MEMBER_IMPORT_HEADERS.map((header) => ({ header, width: header === '身份证号' ? 22 : 12 }));
    ws.getRow(1).font = { bold: true };
    ws.addRow(['1号楼', '1单元', '1101', '张三', '13900000000', '业主', '', '男', '2024-05-01']);
    const help = wb.addWorksheet('填写说明');
    help.columns = [
      { header: '列', width: 12 },
      { header: '说明', width: 80 },
    ];
    help.getRow(1).font = { bold: true };
    for (const line of [
      ['楼栋/单元/房号', '必填，必须是系统中已有的房屋（如 1号楼 / 1单元 / 1101）'],
      ['姓名', '必填，最多 30 个字符；同一手机号的各行姓名必须一致'],
      ['手机号', '必填，11 位手机号；已登记的手机号会为该住户添加房屋'],
      ['身份', '业主、家属 或 租户；不填为业主'],
      ['身份证号', '可不填；填写时须为有效的 18 位身份证号'],
      ['性别', '男 或 女，可不填'],
      ['入住日期', 'YYYY-MM-DD，可不填'],
      ['注意', '任何一行有错误时整个文件都不导入，请下载错误报告按行修改后重新上传'],
    ])
      help.addRow(line);
    const buffer = await wb.xlsx.writeBuffer();
    return { filename: '住户导入模板.xlsx', content_base64: Buffer.from(buffer).toString('base64') };
  },
});

const memberimport = defineMethod('memberimport', {
  side: 'community',
  roles: MEMBER_MANAGERS,
  writes: true,
  summary: '上传住户 Excel：检查表头后作为后台任务导入（返回 job_id，用 jobinfo 查看进度）；有错误行则全部不导入',
  async handler(ctx, input) {
    return enqueueSheetImport(ctx, input, { kind: MEMBER_IMPORT_KIND, requiredHeaders: REQUIRED_HEADERS, maxRows: MEMBER_IMPORT_MAX_ROWS });
  },
});

const memberimporterrors = defineMethod('memberimporterrors', {
  side: 'community',
  roles: MEMBER_MANAGERS,
  writes: false,
  summary: '下载一次住户导入的错误报告（行号、列、原因）',
  async handler(ctx, input) {
    const job = await ctx.db
      .selectFrom('jobs')
      .select(['status', 'result'])
      .where('rid', '=', ctx.rid)
      .where('id', '=', input.job_id)
      .where('kind', '=', MEMBER_IMPORT_KIND)
      .executeTakeFirst();
    if (!job) fail('导入记录不存在');
    if (job.status !== 'done') fail('导入尚未完成');
    const errors = (job.result as MemberImportResult | null)?.errors ?? [];
    if (!errors.length) fail('该次导入没有错误行');
    return errorReport(`住户导入错误报告_${input.job_id}.xlsx`, errors);
  },
});

export const importMethods = [memberimporttemplate, memberimport, memberimporterrors];
