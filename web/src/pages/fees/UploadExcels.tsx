import { Tabs } from 'antd';
import ImportPanel from './ImportPanel';

/** /fees/upload-excels: the fees area's imports on one page, each with its template, upload, progress and log. */
export default function UploadExcels() {
  return (
    <Tabs
      data-testid="upload-excels"
      items={[
        { key: 'bills', label: '历史账单', children: <ImportPanel kind="bills" /> },
        { key: 'meter', label: '抄表读数', children: <ImportPanel kind="meter" /> },
      ]}
    />
  );
}
