import { useState } from 'react';
import { Alert, Button, Card, Input, Select, Switch, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { PAY_CHANNEL_PROVIDER, type PayChannelItem, type PayChannelProvider, type PayScene } from '@wuye/contract/leader/wxsys';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';

const LIST_KEY = ['setchannellist'];

interface Draft {
  provider?: PayChannelProvider;
  enabled: boolean;
  remark: string;
}

/** 支付渠道 (/setup/setchannel on the group side): the provider the group chose per scene, a record only. */
export default function SetChannel() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: LIST_KEY, queryFn: () => call('setchannellist', {}) });
  const [drafts, setDrafts] = useState<Partial<Record<PayScene, Draft>>>({});
  const [saving, setSaving] = useState<PayScene | null>(null);

  const draftOf = (r: PayChannelItem): Draft =>
    drafts[r.scene] ?? { provider: r.provider || undefined, enabled: r.enabled === 'Y', remark: r.remark };
  const change = (r: PayChannelItem, patch: Partial<Draft>) => setDrafts((d) => ({ ...d, [r.scene]: { ...draftOf(r), ...patch } }));

  const save = async (r: PayChannelItem) => {
    const d = draftOf(r);
    if (!d.provider) return;
    setSaving(r.scene);
    try {
      const answer = await request('setchanneledit', {
        scene: r.scene,
        provider: d.provider,
        enabled: d.enabled ? 'Y' : 'N',
        remark: d.remark,
      });
      noticeSuccess(answer.return_msg);
      setDrafts(({ [r.scene]: _saved, ...rest }) => rest);
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
    } catch {
      // the client showed the refusal
    } finally {
      setSaving(null);
    }
  };

  const columns: TableColumnsType<PayChannelItem> = [
    { title: '支付场景', dataIndex: 'scene_ch', width: 120 },
    {
      title: '渠道',
      key: 'provider',
      width: 180,
      render: (_, r) => (
        <Select<PayChannelProvider>
          style={{ width: 160 }}
          placeholder="请选择"
          value={draftOf(r).provider}
          options={enumOptions(PAY_CHANNEL_PROVIDER)}
          onChange={(provider) => change(r, { provider })}
          data-testid={`setchannel-provider-${r.scene}`}
        />
      ),
    },
    {
      title: '启用',
      key: 'enabled',
      width: 80,
      render: (_, r) => (
        <Switch checked={draftOf(r).enabled} onChange={(enabled) => change(r, { enabled })} data-testid={`setchannel-enabled-${r.scene}`} />
      ),
    },
    {
      title: '备注',
      key: 'remark',
      width: 220,
      render: (_, r) => <Input value={draftOf(r).remark} maxLength={100} onChange={(e) => change(r, { remark: e.target.value })} />,
    },
    {
      title: '当前实际使用',
      dataIndex: 'in_use',
      width: 150,
      render: (t: string) => <Typography.Text type="secondary">{t}</Typography.Text>,
    },
    { title: '更新时间', dataIndex: 'update_time', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 90,
      render: (_, r) => (
        <Button
          size="small"
          type="primary"
          ghost
          disabled={!draftOf(r).provider}
          loading={saving === r.scene}
          onClick={() => void save(r)}
          data-testid={`setchannel-save-${r.scene}`}
        >
          保存
        </Button>
      ),
    },
  ];

  return (
    <Card variant="borderless" title="支付渠道">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message="各小区的在线支付按这里的选择收款"
        description="续费扫码支付走“续费”的渠道，临时车扫码缴费走“收银台扫码”的渠道：停用后不再生成付款二维码，所选渠道未开通时提示原因；已生成的订单仍由原渠道确认。业主端缴费和付款码尚未接入在线支付。启用微信支付或支付宝前，须先在“支付商户设置”中添加并启用该渠道的商户（续费除外）。"
      />
      <Table<PayChannelItem>
        rowKey="scene"
        size="middle"
        loading={list.isLoading}
        columns={columns}
        dataSource={list.data?.items ?? []}
        pagination={false}
        scroll={{ x: 1000 }}
        data-testid="setchannel-table"
      />
    </Card>
  );
}
