import { useState } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table, Tag } from 'antd';
import { useNavigate } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import type { LeaderRegion } from '@wuye/contract';
import { useList } from '../../api/useList';
import { PageCard, save } from './shared';
import { usePagination } from '../../components/resource';
import { validValues } from '../../utils/forms';
import { moneyColumn } from '../../components/Money';

interface RegionForm {
  title: string;
  address: string;
  phone: string;
  area: string;
  end_time: Dayjs;
  price_per_year: string;
  status: 'Y' | 'N';
  logo_url: string;
  region_img: string;
  copyright: string;
}

const DECIMAL = /^\d{1,12}(\.\d{1,2})?$/;

export function DaysLeftTag({ days }: { days: number }) {
  if (days < 0) return <Tag color="error">已过期 {-days} 天</Tag>;
  return <Tag color={days < 30 ? 'warning' : 'success'}>剩余 {days} 天</Tag>;
}

/** /leader/regions/index: the group's communities with end dates, add, edit and manual extension. */
export default function LeaderRegions() {
  const list = useList('leaderregionlist', { title: '' });
  const paging = usePagination(list);
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [editing, setEditing] = useState<LeaderRegion | 'new' | null>(null);
  // the communities to extend: one from its row, or those selected (批量延期)
  const [extending, setExtending] = useState<LeaderRegion[] | null>(null);
  const [selected, setSelected] = useState<LeaderRegion[]>([]);
  const [form] = Form.useForm<RegionForm>();
  const [delayForm] = Form.useForm<{ months: number; remark: string }>();

  const open = (row: LeaderRegion | 'new') => {
    form.setFieldsValue(
      row === 'new'
        ? {
            title: '',
            address: '',
            phone: '',
            area: '0',
            end_time: dayjs().add(1, 'year'),
            price_per_year: '3600.00',
            status: 'Y',
            logo_url: '',
            region_img: '',
            copyright: '',
          }
        : { ...row, end_time: dayjs(row.end_time) },
    );
    setEditing(row);
  };
  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    const payload = { ...v, end_time: v.end_time.format('YYYY-MM-DD') };
    try {
      if (editing === 'new') await save('leaderregionadd', payload);
      else if (editing) await save('leaderregionedit', { id: editing.id, ...payload });
      setEditing(null);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  const startExtending = (rows: LeaderRegion[]) => {
    delayForm.setFieldsValue({ months: 12, remark: '' });
    setExtending(rows);
  };
  const extend = async () => {
    if (!extending) return;
    const v = await validValues(delayForm);
    if (!v) return;
    try {
      if (extending.length === 1) await save('leaderregiondelay', { rid: extending[0]!.id, ...v });
      else await save('leaderregiondelaybatch', { rids: extending.map((r) => r.id), ...v });
      setExtending(null);
      setSelected([]);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };

  return (
    <PageCard
      title="小区管理"
      extra={
        <Space>
          <Button disabled={selected.length === 0} onClick={() => startExtending(selected)} data-testid="leader-region-delay-batch">
            批量延期{selected.length ? `（${selected.length}）` : ''}
          </Button>
          <Button onClick={() => void navigate('/leader/regions/regiondelaylog')}>续费记录</Button>
          <Button type="primary" onClick={() => open('new')} data-testid="leader-region-add">
            新增小区
          </Button>
        </Space>
      }
    >
      <Space style={{ marginBottom: 16 }}>
        <Input
          placeholder="小区名称"
          allowClear
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onPressEnter={() => list.setFilters({ title })}
        />
        <Button type="primary" onClick={() => list.setFilters({ title })}>
          搜索
        </Button>
      </Space>
      <Table<LeaderRegion>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={paging}
        scroll={{ x: 1200 }}
        data-testid="leader-region-table"
        rowSelection={{
          selectedRowKeys: selected.map((r) => r.id),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) => setSelected(rows),
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          { title: '小区名称', dataIndex: 'title', width: 140 },
          { title: '地址', dataIndex: 'address', ellipsis: true },
          { title: '联系电话', dataIndex: 'phone', width: 130 },
          { title: '楼栋/房屋', key: 'count', width: 100, render: (_: unknown, r) => `${r.building_count} / ${r.room_count}` },
          { title: '到期日', dataIndex: 'end_time', width: 110 },
          { title: '剩余', dataIndex: 'days_left', width: 120, render: (d: number) => <DaysLeftTag days={d} /> },
          moneyColumn('续费单价（元/年）', 'price_per_year', { width: 140 }),
          {
            title: '状态',
            dataIndex: 'status',
            width: 80,
            render: (s: string) => (s === 'Y' ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>),
          },
          {
            title: '操作',
            key: 'op',
            width: 220,
            fixed: 'right',
            render: (_: unknown, row: LeaderRegion) => (
              <Space>
                <Button size="small" onClick={() => open(row)}>
                  编辑
                </Button>
                <Button size="small" onClick={() => startExtending([row])}>
                  延期
                </Button>
                <Button size="small" onClick={() => void navigate(`/leader/regions/regiondelaylog?rid=${row.id}`)}>
                  记录
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title={editing === 'new' ? '新增小区' : '编辑小区'}
        open={editing !== null}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        width={640}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="title" label="小区名称" rules={[{ required: true, whitespace: true, message: '请输入小区名称' }, { max: 60 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="address" label="地址" rules={[{ max: 200 }]}>
            <Input />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item name="phone" label="联系电话" rules={[{ pattern: /^[\d\-+() ]{5,30}$/, message: '联系电话格式不正确' }]}>
              <Input />
            </Form.Item>
            <Form.Item name="area" label="占地面积（㎡）" rules={[{ pattern: DECIMAL, message: '最多两位小数' }]}>
              <Input />
            </Form.Item>
          </Space>
          <Space size="large" wrap>
            <Form.Item name="end_time" label="服务到期日" rules={[{ required: true, message: '请选择到期日' }]}>
              <DatePicker inputReadOnly allowClear={false} />
            </Form.Item>
            <Form.Item
              name="price_per_year"
              label="续费单价（元/年）"
              rules={[
                { required: true, message: '请输入续费单价' },
                { pattern: DECIMAL, message: '金额格式不正确' },
              ]}
            >
              <Input />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select
                style={{ width: 100 }}
                options={[
                  { value: 'Y', label: '启用' },
                  { value: 'N', label: '停用' },
                ]}
              />
            </Form.Item>
          </Space>
          <Form.Item name="logo_url" label="Logo 地址">
            <Input />
          </Form.Item>
          <Form.Item name="region_img" label="小区平面图地址">
            <Input />
          </Form.Item>
          <Form.Item name="copyright" label="版权信息">
            <Input />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        title={extending && extending.length > 1 ? `批量延期：${extending.length} 个小区` : `延期：${extending?.[0]?.title ?? ''}`}
        open={extending !== null}
        onOk={() => void extend()}
        onCancel={() => setExtending(null)}
        destroyOnHidden
      >
        {extending && extending.length > 1 ? (
          <p data-testid="leader-region-delay-list">
            {extending.map((r) => `${r.title}（${r.end_time}）`).join('、')}：各自从当前到期日延长，已过期的从今天起算
          </p>
        ) : (
          <p>当前到期日：{extending?.[0]?.end_time}（已过期的从今天起算）</p>
        )}
        <Form form={delayForm} layout="vertical">
          <Form.Item name="months" label="延长月数" rules={[{ required: true, message: '请输入延长月数' }]}>
            <InputNumber min={1} max={120} precision={0} />
          </Form.Item>
          <Form.Item name="remark" label="备注" rules={[{ max: 200 }]}>
            <Input placeholder="如 合同续签" />
          </Form.Item>
        </Form>
      </Modal>
    </PageCard>
  );
}
