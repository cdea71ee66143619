import { useState } from 'react';
import { Button, Form, InputNumber, Modal, Space } from 'antd';
import { meter, METER_ROLES, type MeterItem } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { Money } from '../../components/Money';
import { ResourcePage, useCanWrite, useResourceList } from '../../components/resource';
import MeterImport from './MeterImport';
import { MeterDetailDrawer, RechargeModalBody, sendNotice, useMeterRefresh, usePollWhile, ValveActions, ValveCell } from './meterParts';

const LIST_OPTIONS = { path: '/carpark/meterlist' };

/** 抄表时间设置 for the chosen meters: the day of the month and the hour. */
export function ReadTimeModal({ ids, onClose, onDone }: { ids: number[]; onClose: () => void; onDone: () => void }) {
  const [day, setDay] = useState(25);
  const [hour, setHour] = useState(8);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      noticeSuccess((await request('meterreadtime', { ids, read_day: day, read_hour: hour })).return_msg);
      onDone();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`抄表时间设置（${ids.length} 块表）`}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'meterreadtime-ok' } as never}
    >
      <Form layout="inline">
        <Form.Item label="每月抄表日" extra="29–31 日在较短的月份按月末抄表">
          <InputNumber
            min={1}
            max={31}
            precision={0}
            value={day}
            onChange={(v) => setDay(Number(v) || 1)}
            data-testid="meterreadtime-day"
          />
        </Form.Item>
        <Form.Item label="抄表时">
          <InputNumber
            min={0}
            max={23}
            precision={0}
            value={hour}
            onChange={(v) => setHour(Number(v) || 0)}
            data-testid="meterreadtime-hour"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /carpark/meterlist (表计管理; docs/product.md#smart-meters): every meter with its room, reading,
 * money left and valve; 抄表 (read now), 开阀/关阀 and a failed command's 重试 go through the
 * gateway and show 下发中 until the meter answers; 充值 for a prepaid meter; 明细 its readings (a
 * manual one or a swap added there) and commands; 抄表时间 for the chosen meters; 导入 from Excel.
 */
export default function MeterList() {
  const canWrite = useCanWrite(meter.def.roles.write);
  const canImport = useCanWrite(METER_ROLES.devices);
  const canRecharge = useCanWrite(['carpark', 'devicelist', 'cashier', 'fees', 'payment']);
  const list = useResourceList(meter, LIST_OPTIONS);
  const refresh = useMeterRefresh();
  const [detail, setDetail] = useState<MeterItem | null>(null);
  const [recharge, setRecharge] = useState<MeterItem | null>(null);
  const [readTime, setReadTime] = useState<number[] | null>(null);
  const [importing, setImporting] = useState(false);
  usePollWhile(
    list.items.some((m) => m.valve_command === 'pending'),
    list.reload,
  );
  const read = async (row: MeterItem) => {
    if (await sendNotice(request('meterread', { id: row.id }))) setTimeout(refresh, 2500);
  };
  return (
    <>
      <ResourcePage<MeterItem>
        resource={meter}
        listOptions={LIST_OPTIONS}
        title="表计管理"
        toolbar={
          canImport && (
            <Button onClick={() => setImporting(true)} data-testid="meter-import-open">
              导入
            </Button>
          )
        }
        columns={{
          balance: { render: (v: string) => (v === '' ? '—' : <Money value={v} />) },
          valve: { render: (_v: string, row: MeterItem) => <ValveCell row={row} /> },
        }}
        batchActions={(rows, clear) =>
          canWrite && (
            <Button
              onClick={() => {
                setReadTime(rows.map((r) => r.id));
                clear();
              }}
              data-testid="meter-readtime"
            >
              抄表时间
            </Button>
          )
        }
        rowActions={(row) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setDetail(row)} data-testid={`meter-detail-${row.id}`}>
              明细
            </Button>
            {canRecharge && row.mode === 'prepaid' && row.enabled === 'Y' && (
              <Button size="small" type="link" onClick={() => setRecharge(row)} data-testid={`meter-recharge-${row.id}`}>
                充值
              </Button>
            )}
            {canWrite && row.enabled === 'Y' && (
              <>
                <Button size="small" type="link" onClick={() => void read(row)} data-testid={`meter-read-${row.id}`}>
                  抄表
                </Button>
                <ValveActions row={row} onDone={refresh} />
              </>
            )}
          </Space>
        )}
      />
      {detail && <MeterDetailDrawer meter={detail} canWrite={canWrite} onClose={() => setDetail(null)} />}
      {recharge && (
        <Modal open title="表计充值" footer={null} onCancel={() => setRecharge(null)} destroyOnHidden>
          <RechargeModalBody
            meter={recharge}
            onCancel={() => setRecharge(null)}
            onDone={() => {
              setRecharge(null);
              refresh();
              setTimeout(refresh, 2500);
            }}
          />
        </Modal>
      )}
      <MeterImport open={importing} onClose={() => setImporting(false)} onDone={refresh} />
      {readTime && (
        <ReadTimeModal
          ids={readTime}
          onClose={() => setReadTime(null)}
          onDone={() => {
            setReadTime(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
