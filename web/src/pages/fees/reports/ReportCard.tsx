import type { ReactNode } from 'react';
import { Button, Card, Space } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { MethodInput } from '@wuye/contract';
import { call } from '../../../api/client';
import { saveFile } from '../shared';

/** A report page frame: filters on the left of the toolbar, an Excel export on the right. */
export default function ReportCard({ title, filters, exportPayload, children, testId }: {
  title: string;
  filters: ReactNode;
  exportPayload?: MethodInput<'feereportexport'>;
  children: ReactNode;
  testId: string;
}) {
  const doExport = async () => {
    if (!exportPayload) return;
    try {
      saveFile(await call('feereportexport', exportPayload));
    } catch {
      // toasted by the client
    }
  };
  return (
    <Card title={title} data-testid={testId}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Space wrap style={{ flex: 1 }}>{filters}</Space>
        {exportPayload && <Button icon={<DownloadOutlined />} onClick={() => void doExport()} data-testid="report-export">导出 Excel</Button>}
      </div>
      {children}
    </Card>
  );
}
