import { useEffect, useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Tag, type ButtonProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { CAR_TYPE_CH, CAR_TYPES, normalizePlate, PLATE_RE, type CarItem } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import RoomPicker from './RoomPicker';
import { useSmallList } from '../../components/resource';
import { useConfirmDelete } from '../../components/useConfirmDelete';

interface Filters {
  carlicense?: string;
  keyword?: string;
  bid?: number;
  status?: string;
}
interface CarValues {
  path: number[];
  member_id?: number;
  carlicense: string;
  car_type?: string;
  color?: string;
  brand?: string;
  status: 'Y' | 'N';
  remark?: string;
}

/** /basismembers/cars: cars bound to rooms, with plate checks (new-energy plates included). */
export default function CarList() {
  const list = useList('carlist', {});
  const confirmDelete = useConfirmDelete();
  const [form] = Form.useForm<CarValues>();
  const [editing, setEditing] = useState<CarItem | null>(null);
  const [open, setOpen] = useState(false);
  const [people, setPeople] = useState<{ value: number; label: string }[]>([]);
  const buildings = useSmallList('building_small_list', {}).options;
  const path = Form.useWatch('path', form);
  const hid = path?.[2];

  // the car's owner is one of the people living in the chosen room
  useEffect(() => {
    if (!hid) {
      setPeople([]);
      return;
    }
    call('memberlist', { hid, living: 'Y', limit: 50 }, { silent: true })
      .then((r) => setPeople(r.items.map((m) => ({ value: m.id, label: `${m.realname} ${m.mobile}` }))))
      .catch(() => setPeople([]));
  }, [hid]);

  const edit = (car: CarItem | null) => {
    setEditing(car);
    form.resetFields();
    if (car) form.setFieldsValue({ ...car, path: [car.bid, car.tid, car.hid], member_id: car.member_id ?? undefined });
    setOpen(true);
  };
  const save = async () => {
    const v = await form.validateFields();
    const payload = {
      hid: v.path[2]!,
      member_id: v.member_id ?? '',
      carlicense: v.carlicense,
      car_type: v.car_type as CarItem['car_type'] as never,
      color: v.color ?? '',
      brand: v.brand ?? '',
      status: v.status,
      remark: v.remark ?? '',
    };
    try {
      const res = editing ? await request('caredit', { id: editing.id, ...payload }) : await request('caradd', payload);
      noticeSuccess(res.return_msg);
      setOpen(false);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  const remove = (car: CarItem) =>
    confirmDelete(async () => {
      const res = await request('cardel', { id: car.id });
      noticeSuccess(res.return_msg);
      list.reload();
    });

  return (
    <>
      <TablePage<CarItem, Filters>
        title="住户车辆"
        testId="car-list"
        list={list}
        rowKey="id"
        filters={
          <>
            <Form.Item name="carlicense">
              <Input placeholder="车牌号" allowClear data-testid="car-filter-plate" />
            </Form.Item>
            <Form.Item name="keyword">
              <Input placeholder="车主姓名/手机号" allowClear />
            </Form.Item>
            <Form.Item name="bid">
              <Select placeholder="楼栋" allowClear options={buildings} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="status">
              <Select
                placeholder="状态"
                allowClear
                style={{ width: 100 }}
                options={[
                  { value: 'Y', label: '正常' },
                  { value: 'N', label: '停用' },
                ]}
              />
            </Form.Item>
          </>
        }
        onSearch={(f) => list.setFilters(Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')))}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => edit(null)} data-testid="car-add">
            登记车辆
          </Button>
        }
        columns={[
          { title: '编号', dataIndex: 'id', width: 80 },
          { title: '车牌号', dataIndex: 'carlicense' },
          { title: '类型', dataIndex: 'car_type_ch' },
          { title: '房屋', dataIndex: 'address' },
          { title: '车主', render: (_, c) => (c.realname ? `${c.realname} ${c.mobile}` : '—') },
          { title: '颜色', dataIndex: 'color' },
          { title: '品牌', dataIndex: 'brand' },
          {
            title: '状态',
            dataIndex: 'status_ch',
            render: (t: string, c) => <Tag color={c.status === 'Y' ? 'success' : 'default'}>{t}</Tag>,
          },
          { title: '登记时间', dataIndex: 'create_time' },
          {
            title: '操作',
            fixed: 'right',
            render: (_, c) => (
              <Space>
                <Button type="link" size="small" onClick={() => edit(c)} data-testid="car-edit">
                  编辑
                </Button>
                <Button type="link" size="small" danger onClick={() => remove(c)} data-testid="car-delete">
                  删除
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title={editing ? '编辑车辆' : '登记车辆'}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => void save()}
        okButtonProps={{ 'data-testid': 'car-form-save' } as ButtonProps}
        destroyOnHidden
        modalRender={(node) => <div data-testid="car-form">{node}</div>}
      >
        <Form<CarValues> form={form} labelCol={{ span: 5 }} initialValues={{ status: 'Y' }}>
          <Form.Item name="path" label="房屋" rules={[{ required: true, message: '请选择房屋' }]}>
            <RoomPicker testId="car-room" />
          </Form.Item>
          <Form.Item name="member_id" label="车主">
            <Select allowClear options={people} placeholder="该房屋的在住住户" data-testid="car-member" />
          </Form.Item>
          <Form.Item
            name="carlicense"
            label="车牌号"
            normalize={(v: string) => normalizePlate(v ?? '')}
            rules={[
              { required: true, message: '请输入车牌号' },
              { pattern: PLATE_RE, message: '车牌号格式不正确（如 沪A12345、沪AD12345）' },
            ]}
          >
            <Input maxLength={10} placeholder="如 沪A12345、沪AD12345" data-testid="car-plate" />
          </Form.Item>
          <Form.Item name="car_type" label="车辆类型">
            <Select allowClear placeholder="按车牌自动判断" options={CAR_TYPES.map((t) => ({ value: t, label: CAR_TYPE_CH[t] }))} />
          </Form.Item>
          <Form.Item name="color" label="颜色">
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="brand" label="品牌">
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="status" label="状态">
            <Select
              options={[
                { value: 'Y', label: '正常' },
                { value: 'N', label: '停用' },
              ]}
            />
          </Form.Item>
          <Form.Item name="remark" label="备注">
            <Input.TextArea rows={2} maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
