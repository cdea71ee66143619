import { useState } from 'react';
import { Button, Checkbox, Form, Input, Segmented, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { FEE_ROLES } from '@wuye/contract/fees/roles';
import { THING_KIND, type FeeThingItem, type FeeThingRow, type ThingKind } from '@wuye/contract/fees/things';
import { enumOptions } from '@wuye/contract/kit/resource';
import { hasAnyRole } from '@wuye/contract/roles';
import { useList } from '../../api/useList';
import { runExport } from '../../api/exportJob';
import TablePage from '../../components/TablePage';
import { useUser } from '../../stores/user';
import { useSmallList } from '../../components/resource';
import { useActionFixed } from './shared';

interface Filters {
  building_id?: number;
  item_id?: number;
  keywords?: string;
  unbound?: boolean;
}

const TITLE: Record<ThingKind, string> = { room: '房屋', space: '车位', car: '车牌' };
const KEYWORD_HINT: Record<ThingKind, string> = { room: '房屋地址，如 1号楼1单元1101', space: '车位号或车牌', car: '车牌' };
/** The roles of the bill list (/fees/feebilllist), where 查看账单 leads. */
const BILL_LIST_ROLES = ['fees', 'cashier', 'payment'] as const;

/** An item as a tag; the tooltip says how it is bound and its price. */
function ItemTag({ item }: { item: FeeThingItem }) {
  const how = `${item.via_scope_ch}${item.via_title ? `「${item.via_title}」` : ''}绑定`;
  return (
    <Tooltip title={`${how} · 单价 ${item.unit_price}（${item.pricing_ch}）`}>
      <Tag color={item.via_scope === 'region' ? 'default' : 'blue'} style={{ marginBottom: 4 }} data-scope={item.via_scope}>
        {item.item_title}
      </Tag>
    </Tooltip>
  );
}

/** Where 绑定收费项 leads: the binding page with this thing chosen (BindFee reads scope, ref_id, bid, tid, ref_title). */
function bindLink(row: FeeThingRow): string {
  const q = new URLSearchParams({ scope: row.kind, ref_id: String(row.id), ref_title: row.title });
  if (row.kind === 'room') {
    q.set('bid', String(row.bid));
    q.set('tid', String(row.tid));
  }
  return `/fees/bindfee?${q.toString()}`;
}

/**
 * 收费对象 (/fees/feethinglist): each room, billed parking space and car in use with the fee items
 * that apply to it and how each is bound, so that what is charged where, and what is charged
 * nothing, shows at a glance.
 */
export default function FeeThingList() {
  const [form] = Form.useForm<Filters>();
  const [kind, setKind] = useState<ThingKind>('room');
  const list = useList('feethingpagelist', { sort: 'asc', kind: 'room' });
  const buildings = useSmallList('building_small_list', {}).items;
  const things = useSmallList('feethinglist', {}).items;
  const roles = useUser((s) => s.roles);
  const can = (needed: readonly string[]) => hasAnyRole(roles, needed);
  const actionFixed = useActionFixed();

  const toFilters = (v: Filters, k: ThingKind = kind) => ({
    sort: list.filters.sort,
    kind: k,
    building_id: v.building_id,
    item_id: v.item_id,
    keywords: v.keywords?.trim() || undefined,
    unbound: v.unbound === true,
  });
  const search = (k: ThingKind = kind) => list.setFilters(toFilters(form.getFieldsValue(true), k));

  const word = THING_KIND[kind].text;
  const filters = list.filters;
  const emptyText = filters.unbound
    ? filters.item_id
      ? `没有未绑定该收费项目的${word}`
      : `所有${word}都已绑定收费项目`
    : filters.item_id || filters.keywords || filters.building_id
      ? `没有符合条件的${word}`
      : kind === 'room'
        ? '暂无房屋'
        : kind === 'space'
          ? '暂无计费车位（只列出已售、已租且登记了房屋的车位）'
          : '暂无在用车辆';

  const columns: TableColumnsType<FeeThingRow> = [
    { title: TITLE[kind], dataIndex: 'title', width: 150, render: (t: string) => <span data-testid="thing-title">{t}</span> },
    {
      title: '收费项目',
      key: 'items',
      width: 280,
      render: (_, row) =>
        row.items.length ? (
          <div data-testid="thing-items" style={{ maxWidth: 280, whiteSpace: 'normal' }}>
            {row.items.map((i) => (
              <ItemTag key={i.item_id} item={i} />
            ))}
          </div>
        ) : (
          <Typography.Text type="warning" data-testid="thing-items">
            未绑定
          </Typography.Text>
        ),
    },
    ...(kind === 'room'
      ? [{ title: '建筑面积(㎡)', dataIndex: 'area', width: 110, align: 'right' as const }]
      : [{ title: '计费房屋', dataIndex: 'address', width: 160 }]),
    { title: '业主', dataIndex: 'owner_name', width: 90, render: (n: string) => n || '-' },
    {
      title: '操作',
      key: 'op',
      width: 170,
      fixed: actionFixed,
      render: (_, row) => (
        <Space size={4}>
          {can(FEE_ROLES.setup) && (
            <Link to={bindLink(row)} data-testid={`thing-bind-${row.id}`}>
              <Button size="small" type="link">
                绑定收费项
              </Button>
            </Link>
          )}
          {can(BILL_LIST_ROLES) && (
            <Link to={`/fees/feebilllist?bid=${row.bid}&tid=${row.tid}&hid=${row.hid}`} data-testid={`thing-bills-${row.id}`}>
              <Button size="small" type="link">
                查看账单
              </Button>
            </Link>
          )}
        </Space>
      ),
    },
  ];

  return (
    <TablePage<FeeThingRow, Filters>
      testId="feethinglist-page"
      list={list}
      columns={columns}
      rowKey="id"
      title={
        // what the list is of, not a filter: it stays in view on a phone, where the filters fold
        <Space wrap>
          收费对象
          <Segmented<ThingKind>
            value={kind}
            options={enumOptions(THING_KIND) as Array<{ value: ThingKind; label: string }>}
            onChange={(k) => {
              setKind(k);
              search(k);
            }}
            data-testid="thing-kind"
          />
        </Space>
      }
      form={form}
      onSearch={(v) => list.setFilters(toFilters(v))}
      onExport={(v) => runExport('feethingpageexport', toFilters(v))}
      filters={
        <>
          <Form.Item name="building_id" label="楼栋">
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder="全部"
              options={buildings.map((b) => ({ value: b.id, label: b.title }))}
              data-testid="thing-building"
            />
          </Form.Item>
          <Form.Item name="item_id" label="收费项目">
            <Select
              allowClear
              style={{ width: 160 }}
              placeholder="全部"
              options={things.map((i) => ({ value: i.id, label: i.title }))}
              data-testid="thing-item"
            />
          </Form.Item>
          <Form.Item name="keywords" label="关键字">
            <Input allowClear style={{ width: 180 }} placeholder={KEYWORD_HINT[kind]} data-testid="thing-keywords" />
          </Form.Item>
          <Form.Item name="unbound" valuePropName="checked">
            {/* the form takes the value before it calls this (rc-field-form's trigger), so the search sees it */}
            <Checkbox onChange={() => search()} data-testid="thing-unbound">
              只看未绑定
            </Checkbox>
          </Form.Item>
        </>
      }
      tableProps={{ locale: { emptyText: <span data-testid="thing-empty">{emptyText}</span> } }}
    />
  );
}
