import { MEMBER_IMPORT_HEADERS, MEMBER_IMPORT_MAX_ROWS, MOBILE_RE, type MemberImportResult } from '@wuye/contract';
import { defineImport } from '../../jobs/imports.js';
import { MEMBER_MANAGERS } from './access.js';
import { importLinks, loadExisting, MEMBER_IMPORT_KIND, validateRows, type Existing, type ParsedLink } from './import-job.js';

const memberImport = defineImport<'memberimport', 'memberimporttemplate', { links: ParsedLink[]; existing: Existing }, MemberImportResult>({
  kind: MEMBER_IMPORT_KIND,
  label: '住户',
  methods: { template: 'memberimporttemplate', upload: 'memberimport', errors: 'memberimporterrors' },
  summaries: {
    template: '住户导入模板（.xlsx）：表头、示例与填写说明',
    upload: '上传住户 Excel：检查表头后作为后台任务导入（返回 job_id，用 jobinfo 查看进度）；有错误行则全部不导入',
  },
  roles: MEMBER_MANAGERS,
  required: ['楼栋', '单元', '房号', '姓名', '手机号'],
  maxRows: MEMBER_IMPORT_MAX_ROWS,
  maxErrors: 5000,
  template: async () => ({
    filename: '住户导入模板.xlsx',
    sheet: '住户',
    headers: MEMBER_IMPORT_HEADERS,
    widths: { 身份证号: 22 },
    rows: [['1号楼', '1单元', '1101', '张三', '13900000000', '业主', '', '男', '2024-05-01']],
    help: {
      sheet: '填写说明',
      lines: [
        ['楼栋/单元/房号', '必填，必须是系统中已有的房屋（如 1号楼 / 1单元 / 1101）'],
        ['姓名', '必填，最多 30 个字符；同一手机号的各行姓名必须一致'],
        ['手机号', '必填，11 位手机号；已登记的手机号会为该住户添加房屋'],
        ['身份', '业主、家属 或 租户；不填为业主'],
        ['身份证号', '可不填；填写时须为有效的 18 位身份证号'],
        ['性别', '男 或 女，可不填'],
        ['入住日期', 'YYYY-MM-DD，可不填'],
        ['注意', '任何一行有错误时整个文件都不导入，请下载错误报告按行修改后重新上传'],
      ],
    },
  }),
  async check(scope, rows) {
    const mobiles = [...new Set(rows.map((r) => (r.values['手机号'] ?? '').trim()).filter((m) => MOBILE_RE.test(m)))];
    const existing = await loadExisting(scope.db, scope.rid, mobiles);
    const { links, errors } = validateRows(rows, existing);
    return { errors, plan: { links, existing } };
  },
  rejected: (errors) => ({ created_members: 0, linked_rooms: 0, errors }),
  write: (scope, plan) => importLinks(scope, plan.links, plan.existing),
  raced: '导入过程中有相同手机号的住户被他人录入，已全部撤销，请重新导入',
});

export const importMethods = memberImport;
