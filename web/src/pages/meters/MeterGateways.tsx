import { useState } from 'react';
import { Button, Form, InputNumber, Modal, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { meterGateway, type MeterGatewayItem } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, ResourcePage, useCanWrite } from '../../components/resource';
import { SimMetersDrawer } from './meterSim';

/**
 * The simulator's clock (admin only): the meters behind a simulated gateway run N hours at once,
 * reporting a reading each hour; the deductions, the alarm and the valve follow as they would.
 */
function SimRunModal({ gateway, onClose }: { gateway: MeterGatewayItem; onClose: () => void }) {
  const [hours, setHours] = useState<number>(24);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const run = async () => {
    setBusy(true);
    try {
      const answer = await request('metersimrun', { gateway_id: gateway.id, hours });
      noticeSuccess(answer.return_msg);
      for (const name of ['meter', 'metergateway']) void invalidateResource(queryClient, name);
      void queryClient.invalidateQueries({ queryKey: ['list'] });
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`模拟运行 · ${gateway.code} ${gateway.title}`}
      onCancel={onClose}
      onOk={() => void run()}
      confirmLoading={busy}
      okText="运行"
      okButtonProps={{ 'data-testid': 'metersim-ok' } as never}
    >
      <Typography.Paragraph type="secondary">
        采集器下的每块表按其每小时用量运行，每小时上报一次读数：预付费表随之扣费、低于预警通知业主、余额用尽时关阀。
      </Typography.Paragraph>
      <Form layout="inline">
        <Form.Item label="模拟时长（小时）">
          <InputNumber
            min={1}
            max={72}
            precision={0}
            value={hours}
            onChange={(v) => setHours(Number(v) || 1)}
            data-testid="metersim-hours"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /carpark/meterdtu (采集器; docs/product.md#smart-meters): the gateways (DTU, concentrators) with their
 * heartbeat and meters; on a simulated gateway (admin) 模拟运行 and 模拟器 (its meters' usage and 换表).
 */
export default function MeterGateways() {
  const isAdmin = useCanWrite(['admin']);
  const [sim, setSim] = useState<MeterGatewayItem | null>(null);
  const [meters, setMeters] = useState<MeterGatewayItem | null>(null);
  const queryClient = useQueryClient();
  return (
    <>
      <ResourcePage<MeterGatewayItem>
        resource={meterGateway}
        title="采集器"
        rowActions={(row) =>
          isAdmin &&
          row.vendor === 'simulator' && (
            <Space size={0}>
              <Button size="small" type="link" onClick={() => setSim(row)} data-testid={`metergateway-sim-${row.id}`}>
                模拟运行
              </Button>
              <Button size="small" type="link" onClick={() => setMeters(row)} data-testid={`metergateway-simmeters-${row.id}`}>
                模拟器
              </Button>
            </Space>
          )
        }
      />
      {meters && <SimMetersDrawer gateway={meters} onClose={() => setMeters(null)} onRun={() => setSim(meters)} />}
      {sim && (
        <SimRunModal
          gateway={sim}
          onClose={() => {
            setSim(null);
            void queryClient.invalidateQueries({ queryKey: ['metersimlist'] });
          }}
        />
      )}
    </>
  );
}
