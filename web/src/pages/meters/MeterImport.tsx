import type { MeterDeviceImportResult } from '@wuye/contract';
import ImportDialog from '../../components/ImportDialog';

/** meterimport (表计管理 导入): template, upload, job progress, the result or the rows to fix with their report. */
export default function MeterImport({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  return (
    <ImportDialog<MeterDeviceImportResult>
      open={open}
      onClose={onClose}
      onDone={onDone}
      title="导入表计"
      testId="meter-import"
      methods={{ template: 'meterimporttemplate', upload: 'meterimport', errors: 'meterimporterrors' }}
      hint="房屋按楼栋、单元、房号填写（都不填为暂不绑定，可在房屋管理中按楼栋批量绑定）；采集器按编号、单价方案按名称；预警金额设置该房屋的预警金额；任何一行有错误时整个文件都不导入。"
      success={(r) => `导入成功：新增表计 ${r.meters} 块，其中绑定房屋 ${r.bound} 块，设置预警金额的房屋 ${r.alarms} 户`}
    />
  );
}
