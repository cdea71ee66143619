import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import type { FeeBillRow } from '@wuye/contract/fees';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import MoneyInput, { checkAmount } from '../../components/MoneyInput';
import TablePage from '../../components/TablePage';
import { RoomSelects, STATUS_COLOR, type RoomPick, useActionFixed } from './shared';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { runExport } from '../../api/exportJob';
import { useSmallList } from '../../components/resource';
import { enumOptions } from '@wuye/contract/kit/resource';
import { BILL_STATUS } from '@wuye/contract/fees';
import { validValues } from '../../utils/forms';
import { formatMoney, moneyColumn } from '../../components/Money';

interface Filters {
  place?: RoomPick;
  cost_types?: string[];
  title?: string;
  status?: '' | 'E' | 'Y' | 'N';
  min_fee?: string;
  max_fee?: string;
  is_check?: '' | 'Y' | 'N';
  keyword?: string;
  itemid?: number;
}

const num = (v: string | null) => (v ? Number(v) || undefined : undefined);

/** The bill list (/fees/feebilllist): every filter (docs/product.md#calls), delete, adjust, check flag, export. */
export default function FeeBillList() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const fromUrl = { bid: num(params.get('bid')), tid: num(params.get('tid')), hid: num(params.get('hid')) };
  const list = useList('feebilllist', { sort: 'asc', ...fromUrl, batch_id: num(params.get('batch_id')) });
  const costTypes = useSmallList('feebill_cate_small_list', {}).items;
  const things = useSmallList('feethinglist', {}).items;
  const confirmDelete = useConfirmDelete();
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<FeeBillRow | null>(null);
  const [editForm] = Form.useForm<{ fee: string; reason: string }>();
  const [saving, setSaving] = useState(false);

  const toFilters = (v: Filters) => ({
    sort: list.filters.sort,
    batch_id: undefined,
    bid: v.place?.bid,
    tid: v.place?.tid,
    hid: v.place?.hid,
    cost_types: v.cost_types ?? [],
    title: v.title,
    status: v.status ?? '',
    min_fee: v.min_fee || undefined,
    max_fee: v.max_fee || undefined,
    is_check: v.is_check ?? '',
    keyword: v.keyword,
    itemid: v.itemid,
  });

  const check = async (isCheck: 'Y' | 'N') => {
    try {
      const answer = await request('feebillcheck', { ids: selected, is_check: isCheck });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setSelected([]);
      list.reload();
    } catch {
      // toasted by the client
    }
  };

  const saveEdit = async () => {
    if (!editing) return;
    const v = await validValues(editForm);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('feeedit', { id: editing.id, fee: v.fee, reason: v.reason });
      noticeSuccess(answer.return_msg ?? '操作成功');
      setEditing(null);
      list.reload();
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  const actionFixed = useActionFixed();
  const columns: TableColumnsType<FeeBillRow> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    {
      title: '收费项目',
      dataIndex: 'title',
      width: 140,
      // a parking bill names its space or plate
      render: (t: string, b) =>
        b.space_id || b.car_id ? (
          <span>
            {t}
            <br />
            <Tag color="blue" style={{ marginTop: 2 }}>
              {b.measure}
            </Tag>
          </span>
        ) : (
          t
        ),
    },
    { title: '房屋', key: 'house', width: 170, render: (_, b) => `${b.building_title}${b.unit_title}${b.house_title}` },
    // amount and status early, so they stay in view beside the fixed action column
    { title: '计费周期', dataIndex: 'daterange', width: 200 },
    moneyColumn('金额', 'fee', { width: 110 }),
    moneyColumn('滞纳金', 'late_fee', { width: 110 }),
    { title: '状态', dataIndex: 'status', width: 90, render: (s: string, b) => <Tag color={STATUS_COLOR[s]}>{b.status_ch}</Tag> },
    { title: '计量', dataIndex: 'measure', width: 90 },
    moneyColumn('单价', 'unit_price', { width: 100 }),
    { title: '应缴日期', dataIndex: 'due_date', width: 110 },
    { title: '审核', dataIndex: 'is_check', width: 70, render: (c: string) => (c === 'Y' ? <Tag color="blue">已审核</Tag> : '-') },
    { title: '生成时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 190,
      fixed: actionFixed,
      render: (_, b) => (
        <Space size={4}>
          {b.status !== 'Y' && (
            <>
              <Button
                size="small"
                type="link"
                data-testid={`bill-pay-${b.id}`}
                onClick={() => void navigate(`/desktop/cashier?rid=${b.rid}&bid=${b.bid}&tid=${b.tid}&hid=${b.hid}`)}
              >
                收费
              </Button>
              <Button
                size="small"
                type="link"
                data-testid={`bill-edit-${b.id}`}
                onClick={() => {
                  setEditing(b);
                  editForm.setFieldsValue({ fee: b.fee, reason: '' });
                }}
              >
                调整
              </Button>
              <Button
                size="small"
                type="link"
                danger
                data-testid={`bill-del-${b.id}`}
                onClick={() =>
                  confirmDelete(async () => {
                    const answer = await request('feebilldel', { id: b.id });
                    noticeSuccess(answer.return_msg ?? '操作成功');
                    list.reload();
                  })
                }
              >
                删除
              </Button>
            </>
          )}
          {b.status === 'Y' && b.payment_id > 0 && (
            <Button size="small" type="link" onClick={() => void navigate(`/fees/print/receipt/${b.payment_id}`)}>
              收据
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<FeeBillRow, Filters>
        testId="feebilllist-page"
        list={list}
        columns={columns}
        rowKey="id"
        title="账单列表"
        initialFilters={{ place: fromUrl }}
        onSearch={(v) => list.setFilters(toFilters(v))}
        onExport={(v) => runExport('exportfees', { ...toFilters(v), batch_id: list.filters.batch_id, sort: list.filters.sort })}
        filters={
          <>
            <Form.Item name="place" label="房屋" valuePropName="value" trigger="onChange" style={{ maxWidth: '100%' }}>
              <RoomSelectsField />
            </Form.Item>
            <Form.Item name="cost_types" label="费用类型">
              <Select
                mode="multiple"
                allowClear
                style={{ minWidth: 150 }}
                data-testid="bill-cost-types"
                options={costTypes.map((c) => ({ value: c.cost_type, label: c.title }))}
              />
            </Form.Item>
            <Form.Item name="itemid" label="收费项目">
              <Select
                allowClear
                style={{ width: 140 }}
                options={things.map((i) => ({ value: i.id, label: i.title }))}
                data-testid="bill-item"
              />
            </Form.Item>
            <Form.Item name="title" label="名称">
              <Input allowClear style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 100 }} data-testid="bill-status" options={enumOptions(BILL_STATUS)} />
            </Form.Item>
            <Form.Item name="min_fee" label="金额">
              <MoneyInput style={{ width: 90 }} placeholder="最小" />
            </Form.Item>
            <Form.Item name="max_fee" label="至">
              <MoneyInput style={{ width: 90 }} placeholder="最大" />
            </Form.Item>
            <Form.Item name="is_check" label="审核">
              <Select
                allowClear
                style={{ width: 100 }}
                options={[
                  { value: 'Y', label: '已审核' },
                  { value: 'N', label: '未审核' },
                ]}
              />
            </Form.Item>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear style={{ width: 140 }} placeholder="房号/项目/账期" data-testid="bill-keyword" />
            </Form.Item>
          </>
        }
        toolbar={
          <>
            <Button disabled={!selected.length} onClick={() => void check('Y')} data-testid="bill-check">
              审核
            </Button>
            <Button disabled={!selected.length} onClick={() => void check('N')}>
              取消审核
            </Button>
          </>
        }
        tableProps={{ rowSelection: { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } }}
      />
      <Modal
        open={!!editing}
        title={`调整账单金额 #${editing?.id ?? ''}`}
        onCancel={() => setEditing(null)}
        onOk={() => void saveEdit()}
        confirmLoading={saving}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'bill-edit-save' } as never}
      >
        <Form form={editForm} layout="vertical" preserve={false}>
          <Form.Item label="原金额">{formatMoney(editing?.fee, { unit: '元' })}</Form.Item>
          <Form.Item
            name="fee"
            label="新金额（元）"
            rules={[{ validator: (_, v: string) => (checkAmount(v) ? Promise.reject(new Error(checkAmount(v))) : Promise.resolve()) }]}
          >
            <MoneyInput data-testid="bill-edit-fee" />
          </Form.Item>
          <Form.Item name="reason" label="调整原因" rules={[{ required: true, message: '请填写调整原因' }, { max: 200 }]}>
            <Input.TextArea rows={2} data-testid="bill-edit-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** RoomSelects as a form control (value/onChange injected by Form.Item). */
function RoomSelectsField({ value, onChange }: { value?: RoomPick; onChange?: (v: RoomPick) => void }) {
  return <RoomSelects value={value ?? {}} onChange={(v) => onChange?.(v)} testId="bill-place" />;
}
