import { useState, type ReactNode } from 'react';
import { Button, Card, Space } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { MethodInput } from '@wuye/contract';
import { runExport } from '../../../api/exportJob';

/** A report page frame: filters on the left of the toolbar, an Excel export on the right. */
export default function ReportCard({
  title,
  filters,
  exportPayload,
  children,
  testId,
  extra,
  onExport,
}: {
  title: string;
  filters: ReactNode;
  /** beside the export: links to the report's detail pages */
  extra?: ReactNode;
  exportPayload?: MethodInput<'feereportexport'>;
  /** a report with an export of its own (electronicexport) instead of feereportexport */
  onExport?: () => Promise<void>;
  children: ReactNode;
  testId: string;
}) {
  const [exporting, setExporting] = useState(false);
  const doExport = async () => {
    if (!exportPayload && !onExport) return;
    setExporting(true);
    try {
      if (onExport) await onExport();
      else if (exportPayload) await runExport('feereportexport', exportPayload);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card title={title} data-testid={testId}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Space wrap style={{ flex: 1 }}>
          {filters}
        </Space>
        {extra}
        {(exportPayload || onExport) && (
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="report-export">
            导出 Excel
          </Button>
        )}
      </div>
      {children}
    </Card>
  );
}
