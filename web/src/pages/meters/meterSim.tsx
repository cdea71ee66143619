import { useState } from 'react';
import { Button, Drawer, Form, Input, Modal, Space, Switch, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { METER_UNIT, VALVE_STATE, type MeterGatewayItem, type MeterSimItem } from '@wuye/contract';
import { call, request } from '../../api/client';
import { Money } from '../../components/Money';
import { EnumTag } from '../../components/resource';
import { sendNotice, useMeterRefresh } from './meterParts';
import './meters.css';

/*
 * The meter simulator's drawer (docs/product.md#smart-meters), opened from a simulated gateway on
 * /carpark/meterdtu: its meters with their register and consumption, each meter's usage an hour or
 * its profile of the 24 hours of the day (metersimset), and 换表 (metersimswap).
 */

const HOURS = Array.from({ length: 24 }, (_v, h) => h);
/** A household's day as a share of its average hour (they add up to 24): low at night, peaks in the morning and the evening. */
const HOME_DAY = [0.3, 0.3, 0.3, 0.3, 0.3, 0.4, 0.8, 1.5, 1.2, 0.9, 0.9, 1.1, 1.3, 0.9, 0.8, 0.8, 0.9, 1.3, 1.9, 2.1, 2.1, 1.9, 1.3, 0.4];
const USAGE_RE = /^\d{1,6}(\.\d{1,3})?$/;
/** A usage of up to 3 decimals without trailing zeros. */
const usageText = (n: number) => String(Math.round(n * 1000) / 1000);

/** 用量: a simulated meter's usage an hour, or its profile of the 24 hours of the day. */
function ProfileModal({ meter, onClose, onDone }: { meter: MeterSimItem; onClose: () => void; onDone: () => void }) {
  const unit = METER_UNIT[meter.kind];
  const [perHour, setPerHour] = useState(meter.per_hour);
  const [byHour, setByHour] = useState(meter.profile !== null);
  const [profile, setProfile] = useState<string[]>(meter.profile ?? HOURS.map(() => meter.per_hour));
  const [busy, setBusy] = useState(false);
  const bad = !USAGE_RE.test(perHour) || (byHour && profile.some((v) => !USAGE_RE.test(v)));
  const day = byHour ? profile.reduce((n, v) => n + (Number(v) || 0), 0) : (Number(perHour) || 0) * 24;
  const save = async () => {
    setBusy(true);
    if (await sendNotice(request('metersimset', { meter_id: meter.meter_id, per_hour: perHour, profile: byHour ? profile : null })))
      onDone();
    setBusy(false);
  };
  return (
    <Modal
      open
      title={`用量曲线 · ${meter.meter_no}`}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ disabled: bad, 'data-testid': 'metersimprofile-ok' } as never}
      width={640}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={`每小时用量（${unit}）`}
          extra="不按小时曲线时全天按此用量运行"
          validateStatus={USAGE_RE.test(perHour) ? '' : 'error'}
        >
          <Input
            value={perHour}
            onChange={(e) => setPerHour(e.target.value.trim())}
            style={{ width: 160 }}
            data-testid="metersimprofile-perhour"
          />
        </Form.Item>
        <Form.Item label="按小时曲线">
          <Space wrap>
            <Switch checked={byHour} onChange={setByHour} data-testid="metersimprofile-byhour" />
            {byHour && (
              <Button
                size="small"
                onClick={() => setProfile(HOME_DAY.map((f) => usageText(f * (Number(perHour) || 0))))}
                data-testid="metersimprofile-preset"
              >
                按居民作息填入
              </Button>
            )}
          </Space>
        </Form.Item>
        {byHour && (
          <div className="meter-sim-profile" data-testid="metersimprofile-hours">
            {HOURS.map((h) => (
              <label key={h} className="meter-sim-hour">
                <span>{h} 时</span>
                <Input
                  size="small"
                  value={profile[h]}
                  status={USAGE_RE.test(profile[h] ?? '') ? undefined : 'error'}
                  onChange={(e) => setProfile((p) => p.map((v, i) => (i === h ? e.target.value.trim() : v)))}
                  data-testid={`metersimprofile-h${h}`}
                />
              </label>
            ))}
          </div>
        )}
        <Typography.Text type="secondary" data-testid="metersimprofile-day">
          每天用量约 {usageText(day)} {unit}
        </Typography.Text>
      </Form>
    </Modal>
  );
}

/** 换表: the simulated meter is replaced; the new one's register starts at the value given. */
function SwapModal({ meter, onClose, onDone }: { meter: MeterSimItem; onClose: () => void; onDone: () => void }) {
  const [value, setValue] = useState('0');
  const [busy, setBusy] = useState(false);
  const valid = /^\d{1,10}(\.\d{1,2})?$/.test(value);
  const save = async () => {
    setBusy(true);
    if (await sendNotice(request('metersimswap', { meter_id: meter.meter_id, value }))) onDone();
    setBusy(false);
  };
  return (
    <Modal
      open
      title={`换表 · ${meter.meter_no}`}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={busy}
      okText="换表"
      okButtonProps={{ disabled: !valid, 'data-testid': 'metersimswap-ok' } as never}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        换上一块新表：表底数从下面的读数重新开始，随即上报一条换表读数（不计用量），之后的用量从新表读数起算。旧表当前读数 {meter.reading}{' '}
        {METER_UNIT[meter.kind]}。
      </Typography.Paragraph>
      <Form layout="inline">
        <Form.Item label={`新表读数（${METER_UNIT[meter.kind]}）`} validateStatus={valid ? '' : 'error'}>
          <Input value={value} onChange={(e) => setValue(e.target.value.trim())} style={{ width: 140 }} data-testid="metersimswap-value" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 模拟器: the meters behind a simulated gateway, their register and consumption; 用量 and 换表. */
export function SimMetersDrawer({ gateway, onClose, onRun }: { gateway: MeterGatewayItem; onClose: () => void; onRun: () => void }) {
  const meters = useQuery({
    queryKey: ['metersimlist', gateway.id],
    queryFn: () => call('metersimlist', { gateway_id: gateway.id }),
    retry: false,
  });
  const refresh = useMeterRefresh();
  const [profile, setProfile] = useState<MeterSimItem | null>(null);
  const [swap, setSwap] = useState<MeterSimItem | null>(null);
  const done = () => {
    setProfile(null);
    setSwap(null);
    void meters.refetch();
    refresh();
  };
  const columns: TableColumnsType<MeterSimItem> = [
    { key: 'meter_no', title: '表号', dataIndex: 'meter_no', width: 120, fixed: 'left' },
    { key: 'kind_ch', title: '类型', dataIndex: 'kind_ch', width: 70 },
    { key: 'address', title: '房屋', dataIndex: 'address', width: 140, render: (v: string) => v || '未绑定' },
    { key: 'register', title: '表底数', dataIndex: 'register', width: 100, render: (v: string, r) => `${v} ${METER_UNIT[r.kind]}` },
    { key: 'balance', title: '剩余金额', dataIndex: 'balance', width: 100, render: (v: string) => (v === '' ? '—' : <Money value={v} />) },
    { key: 'valve', title: '阀门', dataIndex: 'valve', width: 70, render: (v: string) => <EnumTag enum={VALVE_STATE} value={v} /> },
    {
      key: 'usage',
      title: '用量',
      width: 150,
      render: (_v, r) => (r.profile ? `按小时曲线 · 每天 ${r.per_day}` : `每小时 ${r.per_hour}`),
    },
    {
      key: 'actions',
      title: '操作',
      width: 120,
      fixed: 'right',
      render: (_v, r) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => setProfile(r)} data-testid={`metersim-profile-${r.meter_id}`}>
            用量
          </Button>
          <Button size="small" type="link" onClick={() => setSwap(r)} data-testid={`metersim-swap-${r.meter_id}`}>
            换表
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Drawer
      open
      size="large"
      title={`模拟器 · ${gateway.code} ${gateway.title}`}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Button type="primary" onClick={onRun} data-testid="metersim-run">
          模拟运行
        </Button>
      }
      data-testid="metersim-drawer"
    >
      <Typography.Paragraph type="secondary">
        模拟表在阀门开启时按各自的用量走字：设了按小时曲线的按当时是几点取那个小时的用量，否则全天按每小时用量；每小时上报一次读数。换表后新表从给定读数重新起算。
      </Typography.Paragraph>
      <Table<MeterSimItem>
        rowKey="meter_id"
        size="small"
        loading={meters.isLoading}
        columns={columns}
        dataSource={meters.data?.items ?? []}
        pagination={false}
        scroll={{ x: 870 }}
        data-testid="metersim-table"
      />
      {profile && <ProfileModal meter={profile} onClose={() => setProfile(null)} onDone={done} />}
      {swap && <SwapModal meter={swap} onClose={() => setSwap(null)} onDone={done} />}
    </Drawer>
  );
}
