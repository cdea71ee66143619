import type { MemberImportResult } from '@wuye/contract';
import ImportDialog from '../../components/ImportDialog';

/** memberimport: template, upload, job progress, result or per-row errors with the report. */
export default function MemberImport({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  return (
    <ImportDialog<MemberImportResult>
      open={open}
      onClose={onClose}
      onDone={onDone}
      title="导入住户"
      testId="member-import"
      methods={{ template: 'memberimporttemplate', upload: 'memberimport', errors: 'memberimporterrors' }}
      hint="房屋必须已存在；任何一行有错误时整个文件都不导入。"
      success={(r) => `导入成功：新增住户 ${r.created_members} 人，关联房屋 ${r.linked_rooms} 条`}
    />
  );
}
