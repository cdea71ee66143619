import { useState } from 'react';
import { Alert, Button, Card, Flex, Input, InputNumber, Switch, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayTypeName } from '@wuye/contract/fees';
import { PAY_TYPE_KIND, type PayTypeItem } from '@wuye/contract/leader/paytypes';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag } from '../../components/resource';
import { PayMethods } from './PayMethods';

const LIST_KEY = ['paytypelist'];

interface Draft {
  enabled: boolean;
  counted: boolean;
  ref_required: boolean;
  sort: number;
  remark: string;
}

const yn = (b: boolean) => (b ? 'Y' : 'N');

/**
 * 支付方式 (/setup/paytypelist on the group side; docs/product.md#paytypelist): the system's six
 * payment methods with the group's rules, edited in place row by row (never deleted, only
 * disabled), and below them the group's own ways (PayMethods).
 */
export default function PayTypeList() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: LIST_KEY, queryFn: () => call('paytypelist', {}) });
  const [drafts, setDrafts] = useState<Partial<Record<PayTypeName, Draft>>>({});
  const [saving, setSaving] = useState<PayTypeName | null>(null);

  const draftOf = (r: PayTypeItem): Draft =>
    drafts[r.pay_type] ?? {
      enabled: r.enabled === 'Y',
      counted: r.counted === 'Y',
      ref_required: r.ref_required === 'Y',
      sort: r.sort,
      remark: r.remark,
    };
  const change = (r: PayTypeItem, patch: Partial<Draft>) => setDrafts((d) => ({ ...d, [r.pay_type]: { ...draftOf(r), ...patch } }));

  const save = async (r: PayTypeItem) => {
    const d = draftOf(r);
    setSaving(r.pay_type);
    try {
      const answer = await request('paytypeedit', {
        pay_type: r.pay_type,
        enabled: yn(d.enabled),
        counted: yn(d.counted),
        ref_required: yn(d.ref_required),
        sort: d.sort,
        remark: d.remark,
      });
      noticeSuccess(answer.return_msg);
      setDrafts(({ [r.pay_type]: _saved, ...rest }) => rest);
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
    } catch {
      // the client showed the refusal
    } finally {
      setSaving(null);
    }
  };

  const columns: TableColumnsType<PayTypeItem> = [
    { title: '支付方式', dataIndex: 'pay_type_ch', width: 110 },
    { title: '类型', dataIndex: 'kind', width: 80, render: (k: PayTypeItem['kind']) => <EnumTag enum={PAY_TYPE_KIND} value={k} /> },
    {
      title: '启用',
      key: 'enabled',
      width: 70,
      render: (_, r) => (
        <Switch checked={draftOf(r).enabled} onChange={(enabled) => change(r, { enabled })} data-testid={`paytype-enabled-${r.pay_type}`} />
      ),
    },
    {
      title: '计入实收',
      key: 'counted',
      width: 90,
      render: (_, r) => (
        <Switch checked={draftOf(r).counted} onChange={(counted) => change(r, { counted })} data-testid={`paytype-counted-${r.pay_type}`} />
      ),
    },
    {
      title: '须填凭证号',
      key: 'ref_required',
      width: 100,
      render: (_, r) => (
        <Switch
          checked={draftOf(r).ref_required}
          onChange={(ref_required) => change(r, { ref_required })}
          data-testid={`paytype-ref-${r.pay_type}`}
        />
      ),
    },
    {
      title: '排序',
      key: 'sort',
      width: 100,
      render: (_, r) => (
        <InputNumber
          min={0}
          max={999}
          precision={0}
          style={{ width: 80 }}
          value={draftOf(r).sort}
          onChange={(v) => change(r, { sort: v ?? 0 })}
          data-testid={`paytype-sort-${r.pay_type}`}
        />
      ),
    },
    {
      title: '备注',
      key: 'remark',
      width: 200,
      render: (_, r) => <Input value={draftOf(r).remark} maxLength={100} onChange={(e) => change(r, { remark: e.target.value })} />,
    },
    {
      title: '更新时间',
      dataIndex: 'update_time',
      width: 170,
      render: (t: string) => t || <Tag>默认</Tag>,
    },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_, r) => (
        <Button
          size="small"
          type="primary"
          ghost
          disabled={!drafts[r.pay_type]}
          loading={saving === r.pay_type}
          onClick={() => void save(r)}
          data-testid={`paytype-save-${r.pay_type}`}
        >
          保存
        </Button>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <Card variant="borderless" title="支付方式">
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message="集团各小区收银台（收银台、临时收费、预存）按这里的规则收款"
          description="停用的支付方式不再出现在收银台；须填凭证号的支付方式收款时必须填写银行流水号或凭证号；不计入实收的支付方式（如余额抵扣）在营业统计中单列。系统支付方式不能删除，只能停用；集团可在下方按现金、银行卡、银行转账新增自己的支付方式，收据印它的名称，报表按所属方式统计。"
        />
        <Table<PayTypeItem>
          rowKey="pay_type"
          size="middle"
          loading={list.isLoading}
          columns={columns}
          dataSource={list.data?.items ?? []}
          pagination={false}
          scroll={{ x: 1000 }}
          data-testid="paytype-table"
        />
      </Card>
      <PayMethods methods={list.data?.methods ?? []} loading={list.isLoading} listKey={LIST_KEY} />
    </Flex>
  );
}
