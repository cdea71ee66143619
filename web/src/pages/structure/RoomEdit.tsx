import { useEffect, useState } from 'react';
import { Button, Col, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { RoomState } from '@wuye/contract';
import { ROOM_STATE } from '@wuye/contract/structure';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call } from '../../api/client';
import { NoRoomChosen, PageCard, save } from './shared';
import { invalidateResource, useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';

interface RoomForm {
  bid?: number;
  tid?: number;
  title: string;
  floor: number;
  category_id?: number;
  built_area: string;
  indoor_area: string;
  state: RoomState;
  remark: string;
}

const AREA = /^\d{1,10}(\.\d{1,2})?$/;
const areaRules = [
  { required: true, message: '请输入面积' },
  { pattern: AREA, message: '面积应为不小于0且最多两位小数的数字' },
];

/** /addroom and /editroom?id=…: one form for both; /editroom without a room says which list to pick one from. */
export default function RoomEditPage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const roomId = Number(params.get('id')) || 0;
  if (pathname.toLowerCase() === '/editroom' && !roomId) return <NoRoomChosen title="编辑房屋" />;
  return <RoomEdit key={roomId} roomId={roomId} />;
}

function RoomEdit({ roomId }: { roomId: number }) {
  const [form] = Form.useForm<RoomForm>();
  const bid = Form.useWatch('bid', form);
  const buildings = useSmallList('building_small_list', {}).options;
  const units = useSmallList('unit_small_list', bid ? { bid } : null).options;
  const categories = useSmallList('roomcate_small_list', {}).options;
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!roomId) {
      form.setFieldsValue({ floor: 1, built_area: '0', indoor_area: '0', state: 'vacant', remark: '' });
      return;
    }
    call('roominfo', { id: roomId })
      .then((r) => form.setFieldsValue({ ...r, category_id: r.category_id ?? undefined }))
      .catch(() => undefined);
  }, [roomId, form]);

  // a new room starts as the first category (住宅 by default)
  useEffect(() => {
    if (!roomId && categories[0] && form.getFieldValue('category_id') === undefined) form.setFieldValue('category_id', categories[0].value);
  }, [roomId, categories, form]);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const payload = { ...values, bid: values.bid!, tid: values.tid!, category_id: values.category_id ?? null };
    setSaving(true);
    try {
      if (roomId) await save('roomedit', { id: roomId, ...payload });
      else await save('roomadd', payload);
      await queryClient.invalidateQueries({ queryKey: ['list', 'roomlist'] });
      void invalidateResource(queryClient, 'room');
      void navigate('/roomlist');
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <PageCard title={roomId ? '编辑房屋' : '新增房屋'}>
      <Form form={form} layout="vertical" style={{ maxWidth: 760 }} data-testid="room-form">
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="bid" label="楼栋" rules={[{ required: true, message: '请选择楼栋' }]}>
              <Select
                options={buildings}
                showSearch
                optionFilterProp="label"
                onChange={() => form.setFieldValue('tid', undefined)}
                data-testid="room-bid"
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="tid" label="单元" rules={[{ required: true, message: '请选择单元' }]}>
              <Select options={units} disabled={!bid} data-testid="room-tid" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="title" label="房号" rules={[{ required: true, whitespace: true, message: '请输入房号' }, { max: 30 }]}>
              <Input placeholder="如 1101" data-testid="room-title" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="floor" label="楼层" rules={[{ required: true, message: '请输入楼层' }]}>
              <InputNumber min={-10} max={200} precision={0} style={{ width: '100%' }} data-testid="room-floor" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="built_area" label="建筑面积（㎡）" rules={areaRules}>
              <Input data-testid="room-built-area" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="indoor_area"
              label="套内面积（㎡）"
              dependencies={['built_area']}
              rules={[
                ...areaRules,
                ({ getFieldValue }) => ({
                  validator: (_r, v: string) =>
                    AREA.test(String(v)) && Number(v) > Number(getFieldValue('built_area'))
                      ? Promise.reject(new Error('套内面积不能大于建筑面积'))
                      : Promise.resolve(),
                }),
              ]}
            >
              <Input data-testid="room-indoor-area" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="category_id" label="房屋类型">
              <Select options={categories} allowClear data-testid="room-category" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="state" label="状态" rules={[{ required: true }]}>
              <Select options={enumOptions(ROOM_STATE)} data-testid="room-state" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="remark" label="备注" rules={[{ max: 200 }]}>
              <Input.TextArea rows={3} />
            </Form.Item>
          </Col>
        </Row>
        <Space>
          <Button type="primary" loading={saving} onClick={() => void submit()} data-testid="room-save">
            保存
          </Button>
          <Button onClick={() => void navigate('/roomlist')}>返回</Button>
        </Space>
      </Form>
    </PageCard>
  );
}
