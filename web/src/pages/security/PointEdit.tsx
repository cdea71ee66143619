import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { CHECK_ITEM_TYPE, POINT_KIND, type CheckItemType } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource, useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';

interface ItemDraft {
  title: string;
  type: CheckItemType;
  /** options, one a line */
  options: string;
}
interface PointForm {
  number: string;
  name: string;
  kind: 'S' | 'E' | 'V' | 'F';
  bid?: number;
  tid?: number;
  place: string;
  asset_id?: number;
  nfc_uid: string;
  wand_no: string;
  lat?: number | null;
  lng?: number | null;
  radius: number;
  photo_required: 'Y' | 'N';
  status: 'Y' | 'N';
  remark: string;
}

const LIST = '/security/patrolpointlist';

/**
 * /security/patrolpointadd and /security/patrolpointedit?id= (新增/编辑巡更点): name, number, type,
 * building and unit or a place (or an asset of the ledger), the NFC tag, the wand button, the GPS position and radius, the
 * checklist (正常/异常, single or multiple choice, short text), photo required.
 */
export default function PointEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PointForm>();
  const [items, setItems] = useState<ItemDraft[]>([]);
  const [saving, setSaving] = useState(false);
  const bid = Form.useWatch('bid', form);
  const buildings = useSmallList('building_small_list', {});
  const units = useSmallList('unit_small_list', bid ? { bid } : null);
  const assets = useSmallList('asset_small_list', {});

  useEffect(() => {
    if (!id) return;
    call('patrolpointinfo', { id })
      .then((r) => {
        form.setFieldsValue({ ...r, bid: r.bid ?? undefined, tid: r.tid ?? undefined, asset_id: r.asset_id ?? undefined });
        setItems(r.checklist.map((c) => ({ title: c.title, type: c.type, options: c.options.join('\n') })));
      })
      .catch(() => void navigate(LIST, { replace: true }));
  }, [id, form, navigate]);

  const setItem = (i: number, patch: Partial<ItemDraft>) => setItems((all) => all.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const payload = {
      ...v,
      bid: v.bid ?? '',
      tid: v.tid ?? '',
      asset_id: v.asset_id ?? '',
      lat: v.lat ?? null,
      lng: v.lng ?? null,
      checklist: items.map((c) => ({
        title: c.title,
        type: c.type,
        options:
          c.type === 'single' || c.type === 'multiple'
            ? c.options
                .split(/\n|,|，/)
                .map((o) => o.trim())
                .filter(Boolean)
            : [],
      })),
    };
    setSaving(true);
    try {
      const answer = id ? await request('patrolpointedit', { ...payload, id }) : await request('patrolpointadd', payload);
      noticeSuccess(answer.return_msg ?? '操作成功');
      void invalidateResource(queryClient, 'patrolpoint');
      void navigate(LIST);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={id ? '编辑巡更点' : '新增巡更点'} data-testid="patrolpoint-form">
      <Form
        form={form}
        labelCol={{ xs: { span: 24 }, sm: { span: 4 } }}
        wrapperCol={{ xs: { span: 24 }, sm: { span: 16 } }}
        initialValues={{
          kind: 'S',
          radius: 50,
          photo_required: 'N',
          status: 'Y',
          place: '',
          nfc_uid: '',
          wand_no: '',
          remark: '',
          number: '',
        }}
      >
        <Form.Item name="name" label="名称" rules={[{ required: true, max: 30, message: '请输入巡更点名称（最多30字）' }]}>
          <Input data-testid="point-name" placeholder="如 东门岗" />
        </Form.Item>
        <Form.Item name="number" label="编号" extra="不填则自动编号；印在二维码标签上，签到时可手工输入">
          <Input data-testid="point-number" maxLength={20} />
        </Form.Item>
        <Form.Item name="kind" label="类型" rules={[{ required: true, message: '请选择类型' }]}>
          <Radio.Group options={enumOptions(POINT_KIND)} data-testid="point-kind" />
        </Form.Item>
        <Form.Item label="位置" required extra="选择楼栋（和单元），或填写区域位置，或在下方选择设备">
          <Space wrap>
            <Form.Item name="bid" noStyle>
              <Select
                allowClear
                placeholder="楼栋"
                style={{ width: 140 }}
                options={buildings.items.map((b) => ({ value: b.id, label: b.title }))}
                onChange={() => form.setFieldValue('tid', undefined)}
                data-testid="point-bid"
              />
            </Form.Item>
            <Form.Item name="tid" noStyle>
              <Select
                allowClear
                placeholder="单元"
                style={{ width: 120 }}
                disabled={!bid}
                options={units.items.map((u) => ({ value: u.id, label: u.title }))}
              />
            </Form.Item>
            <Form.Item name="place" noStyle>
              <Input placeholder="区域/位置，如 地下车库B2出入口" style={{ width: 260 }} maxLength={60} data-testid="point-place" />
            </Form.Item>
          </Space>
        </Form.Item>
        <Form.Item name="asset_id" label="设备" extra="巡查设备台账中的一台设备时选择（如 消防泵、配电柜）">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="不选则不关联设备"
            style={{ maxWidth: 400 }}
            options={assets.items.map((a) => ({ value: a.id, label: a.title }))}
            data-testid="point-asset"
          />
        </Form.Item>
        <Form.Item name="nfc_uid" label="NFC标签" extra="大小写、冒号和横线不区分，保存为大写无分隔">
          <Input maxLength={40} data-testid="point-nfc" />
        </Form.Item>
        <Form.Item name="wand_no" label="钮号" extra="巡更棒信息钮的编号">
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item label="GPS位置" extra="超出半径的签到会标记，但不会被拒绝">
          <Space wrap>
            <Form.Item name="lat" noStyle>
              <InputNumber placeholder="纬度" min={-90} max={90} step={0.0001} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="lng" noStyle>
              <InputNumber placeholder="经度" min={-180} max={180} step={0.0001} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="radius" noStyle>
              <InputNumber min={5} max={5000} addonAfter="米" style={{ width: 140 }} />
            </Form.Item>
            <Button
              onClick={() =>
                navigator.geolocation?.getCurrentPosition((p) =>
                  form.setFieldsValue({ lat: Number(p.coords.latitude.toFixed(7)), lng: Number(p.coords.longitude.toFixed(7)) }),
                )
              }
            >
              取当前位置
            </Button>
          </Space>
        </Form.Item>
        <Form.Item label="检查项">
          <Space direction="vertical" style={{ width: '100%' }}>
            {items.map((c, i) => (
              <Space key={i} align="start" wrap data-testid={`check-item-${i}`}>
                <Input
                  value={c.title}
                  placeholder="检查项名称，如 门禁是否正常"
                  maxLength={40}
                  style={{ width: 220 }}
                  onChange={(e) => setItem(i, { title: e.target.value })}
                  data-testid={`check-item-title-${i}`}
                />
                <Select
                  value={c.type}
                  style={{ width: 110 }}
                  options={enumOptions(CHECK_ITEM_TYPE)}
                  onChange={(type: CheckItemType) => setItem(i, { type })}
                />
                {(c.type === 'single' || c.type === 'multiple') && (
                  <Input.TextArea
                    value={c.options}
                    placeholder="选项，一行一个"
                    autoSize={{ minRows: 2, maxRows: 5 }}
                    style={{ width: 200 }}
                    onChange={(e) => setItem(i, { options: e.target.value })}
                  />
                )}
                <Button
                  icon={<DeleteOutlined />}
                  onClick={() => setItems((all) => all.filter((_, j) => j !== i))}
                  aria-label="删除检查项"
                />
              </Space>
            ))}
            <Button
              icon={<PlusOutlined />}
              onClick={() => setItems((all) => [...all, { title: '', type: 'normal', options: '' }])}
              disabled={items.length >= 20}
              data-testid="check-item-add"
            >
              添加检查项
            </Button>
          </Space>
        </Form.Item>
        <Form.Item name="photo_required" label="必须拍照">
          <Radio.Group
            options={[
              { value: 'Y', label: '是' },
              { value: 'N', label: '否' },
            ]}
            data-testid="point-photo"
          />
        </Form.Item>
        <Form.Item name="status" label="状态">
          <Radio.Group
            options={[
              { value: 'Y', label: '启用' },
              { value: 'N', label: '停用' },
            ]}
          />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多200字' }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item wrapperCol={{ xs: { span: 24 }, sm: { offset: 4, span: 16 } }}>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="patrolpoint-save">
              保存
            </Button>
            <Button onClick={() => void navigate(LIST)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
