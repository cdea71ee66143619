import type { CardImportResult } from '@wuye/contract/cards/links';
import ImportDialog from '../../components/ImportDialog';

/** cardusimport (会员列表 导入): template, upload, job progress, result or per-row errors with the report. */
export default function CardImport({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  return (
    <ImportDialog<CardImportResult>
      open={open}
      onClose={onClose}
      onDone={onDone}
      title="导入会员卡"
      testId="card-import"
      methods={{ template: 'cardusimporttemplate', upload: 'cardusimport', errors: 'cardusimporterrors' }}
      hint="会员按手机号查找，未登记的新增；每位会员只能有一张在用的卡；期初余额、期初积分记为期初流水；任何一行有错误时整个文件都不导入。"
      success={(r) =>
        `导入成功：开卡 ${r.cards} 张（新增会员 ${r.members_added} 人），期初余额合计 ${r.opening_balance} 元，期初积分合计 ${r.opening_points}`
      }
    />
  );
}
