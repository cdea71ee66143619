import { useState } from 'react';
import { Button, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { enumKeys, enumOptions, enumText } from '@wuye/contract/kit/resource';
import { UNIT_KIND, UNIT_STATE, type UnitState, type UnitStateRow } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import { request } from '../../../api/client';
import { runExport } from '../../../api/exportJob';
import { noticeSuccess } from '../../../api/feedback';
import { useList } from '../../../api/useList';
import MoneyInput from '../../../components/MoneyInput';
import { moneyColumn } from '../../../components/Money';
import Permission from '../../../components/Permission';
import TablePage, { useActionFixed } from '../../../components/TablePage';
import { EnumTag, SmallSelect, useRoles } from '../../../components/resource';

interface Filters {
  unit_kind?: string;
  bid?: number;
  keyword?: string;
}

/** 设置挂牌价 of the units chosen: per m² of a room's built area, or one price each. */
function PriceDialog({ units, onClose }: { units: UnitStateRow[]; onClose: (done: boolean) => void }) {
  const [form] = Form.useForm<{ mode: 'per_m2' | 'price'; value: string }>();
  const [busy, setBusy] = useState(false);
  const mode = Form.useWatch('mode', form);
  const send = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      const answer = await request('rentroompriceset', {
        units: units.map((u) => ({ unit_kind: u.unit_kind, unit_id: u.unit_id })),
        per_m2: v.mode === 'per_m2' ? v.value : '',
        price: v.mode === 'price' ? v.value : '',
      });
      noticeSuccess(answer.return_msg);
      onClose(true);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`设置挂牌价（${units.length} 个房源）`}
      onCancel={() => onClose(false)}
      onOk={() => void send()}
      okButtonProps={{ loading: busy, 'data-testid': 'price-ok' } as never}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ mode: units.some((u) => u.unit_kind === 'space') ? 'price' : 'per_m2', value: '' }}
      >
        <Form.Item name="mode" label="定价方式">
          <Radio.Group
            options={[
              { value: 'per_m2', label: '按建筑面积单价', disabled: units.some((u) => u.unit_kind === 'space') },
              { value: 'price', label: '统一总价' },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="value"
          label={mode === 'price' ? '总价（元）' : '单价（元/㎡）'}
          rules={[{ required: true, message: '请输入价格' }]}
        >
          <MoneyInput data-testid="price-value" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /crm/rentroom (出租出售房源; docs/product.md#crm-contracts): every room and parking space with its
 * state from the contracts (可售, 已预订, 已认购, 已签约, 已出租), its list price and its contract;
 * 设置挂牌价 for those chosen, 签约 from an available one, 销控表 by building.
 */
export default function RentRoom() {
  const list = useList('rentroomlist', {});
  const navigate = useNavigate();
  const can = useRoles();
  const actionFixed = useActionFixed();
  const [state, setState] = useState<UnitState | ''>('');
  const [chosen, setChosen] = useState<UnitStateRow[]>([]);
  const [pricing, setPricing] = useState(false);
  const counts = list.answer?.counts;
  const all = counts ? Object.values(counts).reduce((s, n) => s + n, 0) : undefined;
  const columns: TableColumnsType<UnitStateRow> = [
    { title: '类型', dataIndex: 'unit_kind_ch', width: 70 },
    { title: '房源', dataIndex: 'title', width: 180 },
    { title: '面积（㎡）', dataIndex: 'area', width: 100, align: 'right' },
    { title: '状态', dataIndex: 'state', width: 90, render: (v: string) => <EnumTag enum={UNIT_STATE} value={v} /> },
    moneyColumn('挂牌价', 'list_price', { width: 130 }),
    moneyColumn('合同价', 'contract_price', { width: 130 }),
    { title: '合同编号', dataIndex: 'contract_no', width: 170 },
    { title: '乙方', dataIndex: 'party_name', width: 100 },
    {
      title: '操作',
      key: 'op',
      width: 110,
      fixed: actionFixed,
      render: (_, r) =>
        r.contract_id ? (
          <Button
            size="small"
            type="link"
            onClick={() => void navigate(`/crm/roomshow?id=${r.contract_id}`)}
            data-testid={`rentroom-contract-${r.key}`}
          >
            查看合同
          </Button>
        ) : (
          can([...CRM_ROLES.contracts]) && (
            <Button
              size="small"
              type="link"
              onClick={() => void navigate('/crm/addroomsales', { state: { unit: r } })}
              data-testid={`rentroom-sign-${r.key}`}
            >
              签约
            </Button>
          )
        ),
    },
  ];
  const filtersOf = (v: Filters, s: UnitState | '') => ({
    unit_kind: (v.unit_kind ?? '') as never,
    bid: v.bid ?? '',
    keyword: v.keyword?.trim() || undefined,
    state: s as never,
  });
  const [last, setLast] = useState<Filters>({});
  return (
    <>
      <Radio.Group
        value={state}
        onChange={(e) => {
          const s = e.target.value as UnitState | '';
          setState(s);
          list.setFilters(filtersOf(last, s));
        }}
        optionType="button"
        style={{ marginBottom: 12, flexWrap: 'wrap', display: 'flex', rowGap: 4 }}
        data-testid="rentroom-states"
        options={[
          { value: '', label: `全部 ${all ?? ''}` },
          ...enumKeys(UNIT_STATE).map((k) => ({ value: k, label: `${enumText(UNIT_STATE, k)} ${counts?.[k] ?? ''}` })),
        ]}
      />
      <TablePage<UnitStateRow, Filters>
        testId="rentroom-page"
        list={list}
        columns={columns}
        rowKey="key"
        onSearch={(v) => {
          setLast(v);
          list.setFilters(filtersOf(v, state));
        }}
        onExport={(v) => runExport('rentroomexport', filtersOf(v, state))}
        tableProps={
          can([...CRM_ROLES.contracts])
            ? {
                rowSelection: {
                  selectedRowKeys: chosen.map((u) => u.key),
                  onChange: (_k, rows) => setChosen(rows),
                  preserveSelectedRowKeys: true,
                },
              }
            : undefined
        }
        toolbar={
          <Space wrap>
            <Button onClick={() => void navigate('/salestable')} data-testid="rentroom-salestable">
              销控表
            </Button>
            <Permission roles={[...CRM_ROLES.contracts, 'admin']}>
              <Button disabled={!chosen.length} onClick={() => setPricing(true)} data-testid="rentroom-price">
                设置挂牌价{chosen.length ? `（${chosen.length}）` : ''}
              </Button>
            </Permission>
          </Space>
        }
        filters={
          <>
            <Form.Item name="unit_kind" label="类型">
              <Select allowClear style={{ width: 100 }} options={enumOptions(UNIT_KIND)} />
            </Form.Item>
            <Form.Item name="bid" label="楼栋">
              <SmallSelect widget={{ small: 'building_small_list' }} values={{}} allowClear style={{ width: 130 }} />
            </Form.Item>
            <Form.Item name="keyword" label="房源">
              <Input allowClear maxLength={40} placeholder="房号、车位号" style={{ width: 160 }} />
            </Form.Item>
          </>
        }
      />
      {pricing && (
        <PriceDialog
          units={chosen}
          onClose={(done) => {
            setPricing(false);
            if (done) {
              setChosen([]);
              list.reload();
            }
          }}
        />
      )}
      <Typography.Text type="secondary">
        状态由合同得出：草稿为已预订，审批中为已认购，生效的买卖与车位合同为已签约，生效的租赁合同为已出租。
      </Typography.Text>
    </>
  );
}
