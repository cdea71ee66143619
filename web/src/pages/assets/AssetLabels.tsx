import { Button, Card, Result, Spin } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import QrImage from '../../components/QrImage';
import './labels.css';

/**
 * /carpark/device_print?ids=1,2 (打印设备标签; docs/product.md#equipment-ledger): a label per asset,
 * its QR code encoding the asset's code, with its name, category, place, first use and the staff
 * responsible, laid out for a sheet of labels; 打印 prints them.
 */
export default function AssetLabels() {
  const [params] = useSearchParams();
  const ids = (params.get('ids') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
    .slice(0, 200);
  const q = useQuery({
    queryKey: ['assetlabels', ids],
    queryFn: () => call('assetlabels', { ids }),
    enabled: ids.length > 0,
    retry: false,
  });
  if (ids.length === 0) return <Result status="info" title="请先在设备台账中选择要打印的设备" />;
  if (q.isLoading) return <Spin />;
  if (!q.data) return <Result status="warning" title="设备不存在" />;
  const d = q.data;
  return (
    <Card variant="borderless">
      <div className="asset-label-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="asset-labels-print">
          打印（{d.items.length} 个标签）
        </Button>
      </div>
      <div className="asset-labels" data-testid="asset-labels">
        {d.items.map((a) => (
          <div key={a.id} className="asset-label" data-testid={`asset-label-${a.code}`}>
            <QrImage text={a.code} size={96} testId={`asset-label-qr-${a.code}`} />
            <div className="asset-label-text">
              <div className="asset-label-title">{d.community} 设备标签</div>
              <div>
                <b>{a.name}</b>
              </div>
              <div>编码：{a.code}</div>
              <div>分类：{a.category_name}</div>
              <div>位置：{a.location}</div>
              <div>启用：{a.first_use ?? ''}</div>
              <div>责任人：{a.staff_names}</div>
            </div>
          </div>
        ))}
      </div>
    </Card>
  );
}
