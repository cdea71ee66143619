import { useState } from 'react';
import { Button, Modal, Space } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { patrolPoint, type PatrolPointItem } from '@wuye/contract';
import { call } from '../../api/client';
import QrImage from '../../components/QrImage';
import { ResourcePage } from '../../components/resource';
import { printLabels } from './labels';

/**
 * /security/patrolpointlist (巡更点; docs/product.md#patrols): the points with their location, check-in
 * ways, checklist and plans; a point's QR label shown and printed one by one, or the labels of the
 * chosen points (or all) printed as a sheet.
 */
export default function PointList() {
  const [qr, setQr] = useState<PatrolPointItem | null>(null);
  const printAll = async () => {
    try {
      const all = await call('patrolpointlist', { limit: 200, status: 'Y' });
      await printLabels(all.items, '巡更点二维码');
    } catch {
      /* shown by the client */
    }
  };
  return (
    <>
      <ResourcePage<PatrolPointItem>
        resource={patrolPoint}
        title="巡更点"
        toolbar={
          <Button icon={<PrinterOutlined />} onClick={() => void printAll()} data-testid="patrolpoint-print-all">
            打印全部二维码
          </Button>
        }
        batchActions={(rows) => (
          <Button icon={<PrinterOutlined />} onClick={() => void printLabels(rows, '巡更点二维码')} data-testid="patrolpoint-print-chosen">
            打印所选二维码
          </Button>
        )}
        rowActions={(row) => (
          <Button size="small" type="link" onClick={() => setQr(row)} data-testid={`patrolpoint-qr-${row.id}`}>
            二维码
          </Button>
        )}
      />
      <Modal
        open={qr !== null}
        title={qr ? `${qr.number} ${qr.name}` : ''}
        onCancel={() => setQr(null)}
        footer={
          <Space>
            <Button onClick={() => setQr(null)}>关闭</Button>
            <Button type="primary" icon={<PrinterOutlined />} onClick={() => qr && void printLabels([qr], `${qr.number} ${qr.name}`)}>
              打印标签
            </Button>
          </Space>
        }
        destroyOnHidden
      >
        {qr && (
          <div style={{ textAlign: 'center' }} data-testid="patrolpoint-qr">
            <QrImage text={qr.qr_code} size={200} />
            <div style={{ fontSize: 20, fontWeight: 600 }}>{qr.number}</div>
            <div>{qr.location}</div>
          </div>
        )}
      </Modal>
    </>
  );
}
