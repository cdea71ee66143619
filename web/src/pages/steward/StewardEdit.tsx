import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Radio, Select, Space, TreeSelect, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { PHONE_RE } from '@wuye/contract/team/departments';
import {
  itemsProblem,
  STEWARD_POST,
  STEWARD_STATUS,
  weightPercent,
  weightText,
  WEIGHT_FULL,
  type StewardPost,
} from '@wuye/contract/steward/profiles';
import { call, request } from '../../api/client';
import { noticeSuccess, toastError } from '../../api/feedback';
import { PhotosInput } from '../../components/PhotosInput';
import { invalidateResource, useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';
import './steward.css';

interface ItemLine {
  item_id?: number;
  weight?: number | null;
}
interface ProfileForm {
  account_id?: number;
  photo: string[];
  post?: StewardPost;
  areas: string[];
  phone: string;
  introduction: string;
  items: ItemLine[];
  status: 'Y' | 'N';
  sort: number;
}

export const STEWARD_LIST = '/steward/stewardlist';

/** A tree value: 'b12' a whole building, 'u34' a unit (of its building). */
const areaKey = (a: { bid: number; tid: number | null }) => (a.tid ? `u${a.tid}` : `b${a.bid}`);

/** The weights' total in hundredths of a percent, or null while a weight is not a valid percent. */
function totalWeight(items: ItemLine[]): number | null {
  let sum = 0;
  for (const line of items) {
    const parsed = weightPercent.safeParse(line?.weight ?? '');
    if (!parsed.success) return null;
    sum += parsed.data;
  }
  return sum;
}

/**
 * /steward/steadd and /steward/steedit?id= (新增/编辑管家档案; docs/product.md#steward-profiles):
 * the staff account, photo, post, the buildings and units served (a building checked whole serves
 * its units to come too), service phone, introduction, and the assessment items with weights that
 * must total 100 %.
 */
export default function StewardEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProfileForm>();
  const [saving, setSaving] = useState(false);
  const [title, setTitle] = useState('');
  const items = (Form.useWatch('items', form) ?? []) as ItemLine[];
  const staff = useQuery({ queryKey: ['steward_staff_small_list'], queryFn: () => call('steward_staff_small_list', {}) });
  const tree = useQuery({ queryKey: ['steward_area_tree'], queryFn: () => call('steward_area_tree', {}) });
  const scoreItems = useSmallList('scoreitem_small_list', {});

  useEffect(() => {
    if (!id) return;
    call('stewardinfo', { id })
      .then((r) => {
        setTitle(r.name);
        form.setFieldsValue({
          ...r,
          photo: r.photo ? [r.photo] : [],
          areas: r.areas.map(areaKey),
          items: r.items.map((i) => ({ item_id: i.item_id, weight: Number(i.weight) })),
        });
      })
      .catch(() => void navigate(STEWARD_LIST, { replace: true }));
  }, [id, form, navigate]);

  const treeData = useMemo(
    () =>
      (tree.data?.items ?? []).map((b) => ({
        value: `b${b.bid}`,
        title: b.title,
        children: b.units.map((u) => ({ value: `u${u.tid}`, title: `${b.title}${u.title}` })),
      })),
    [tree.data],
  );
  const unitBuilding = useMemo(() => {
    const m = new Map<number, number>();
    for (const b of tree.data?.items ?? []) for (const u of b.units) m.set(u.tid, b.bid);
    return m;
  }, [tree.data]);

  const total = totalWeight(items);
  const chosen = new Set(items.map((i) => i?.item_id));
  const spread = () => {
    const n = items.length;
    if (!n) return;
    const each = Math.floor(WEIGHT_FULL / n);
    form.setFieldValue(
      'items',
      items.map((line, i) => ({ ...line, weight: Number(weightText(i === n - 1 ? WEIGHT_FULL - each * (n - 1) : each)) })),
    );
  };

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const problem = itemsProblem(v.items.map((i) => ({ item_id: i.item_id!, weight: weightPercent.safeParse(i.weight ?? '').data ?? 0 })));
    if (problem) {
      toastError(problem);
      return;
    }
    const payload = {
      photo: v.photo ?? [],
      post: v.post!,
      areas: v.areas.map((k) => {
        const n = Number(k.slice(1));
        return k.startsWith('b') ? { bid: n, tid: null } : { bid: unitBuilding.get(n) ?? 0, tid: n };
      }),
      phone: v.phone ?? '',
      introduction: v.introduction ?? '',
      items: v.items.map((i) => ({ item_id: i.item_id!, weight: String(i.weight ?? '') })),
      status: v.status,
      sort: v.sort ?? 0,
    };
    setSaving(true);
    try {
      const answer = id
        ? await request('stewardedit', { ...payload, id })
        : await request('stewardadd', { ...payload, account_id: v.account_id! });
      noticeSuccess(answer.return_msg ?? '操作成功');
      void invalidateResource(queryClient, 'steward');
      void invalidateResource(queryClient, 'scoreitem');
      void queryClient.invalidateQueries({ queryKey: ['steward_staff_small_list'] });
      void navigate(STEWARD_LIST);
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={id ? `编辑管家档案${title ? ` · ${title}` : ''}` : '新增管家档案'} data-testid="steward-form" className="steward-edit">
      {scoreItems.items.length === 0 && !scoreItems.loading && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="还没有启用的考核项目：请先在“管家档案 → 考核项目”中新增" />
      )}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ xs: { span: 24 }, sm: { span: 4 } }}
        wrapperCol={{ xs: { span: 24 }, sm: { span: 18 } }}
        initialValues={{ photo: [], areas: [], items: [{}], status: 'Y', sort: 0, phone: '', introduction: '' }}
      >
        {!id && (
          <Form.Item
            name="account_id"
            label="员工账号"
            rules={[{ required: true, message: '请选择员工账号' }]}
            extra="一个账号只有一份档案"
          >
            <Select
              showSearch
              optionFilterProp="label"
              loading={staff.isLoading}
              placeholder="本小区的员工"
              data-testid="steward-account"
              options={(staff.data?.items ?? []).map((s) => ({
                value: s.id,
                label: s.profile_id ? `${s.name}（${s.username}，已建档）` : `${s.name}（${s.username}）`,
                disabled: s.profile_id !== null,
              }))}
            />
          </Form.Item>
        )}
        <Form.Item name="photo" label="头像" extra="用于业主端“我的管家”">
          <PhotosInput max={1} testId="steward-photo" />
        </Form.Item>
        <Form.Item name="post" label="岗位" rules={[{ required: true, message: '请选择岗位' }]}>
          <Radio.Group options={enumOptions(STEWARD_POST)} data-testid="steward-post" />
        </Form.Item>
        <Form.Item
          name="areas"
          label="负责楼栋/单元"
          rules={[{ required: true, type: 'array', min: 1, message: '请选择负责的楼栋或单元' }]}
          extra="勾选整栋即负责该楼所有单元（含以后新增的单元）；同一单元同一岗位只能有一位在岗负责人"
        >
          <TreeSelect
            treeData={treeData}
            treeCheckable
            showCheckedStrategy={TreeSelect.SHOW_PARENT}
            placeholder="选择楼栋或单元"
            loading={tree.isLoading}
            maxTagCount="responsive"
            treeNodeFilterProp="title"
            data-testid="steward-areas"
          />
        </Form.Item>
        <Form.Item
          name="phone"
          label="服务电话"
          rules={[{ pattern: PHONE_RE, message: '服务电话格式不正确（11位手机号或带区号的座机，如 021-58881234）' }]}
        >
          <Input placeholder="手机号或座机，业主端展示" maxLength={20} data-testid="steward-phone" />
        </Form.Item>
        <Form.Item name="introduction" label="简介" rules={[{ max: 2000, message: '简介最多2000字' }]}>
          <Input.TextArea rows={3} placeholder="负责的事务、工作时间、服务承诺" data-testid="steward-intro" />
        </Form.Item>
        <Form.Item label="考核项目" required>
          <Form.List name="items">
            {(fields, { add, remove }) => (
              <div className="steward-items">
                {fields.map((f, i) => (
                  <Space key={f.key} align="start" className="steward-item-line" wrap>
                    <Form.Item name={[f.name, 'item_id']} rules={[{ required: true, message: '请选择考核项目' }]} noStyle={false}>
                      <Select
                        style={{ width: 200 }}
                        placeholder="考核项目"
                        data-testid={`steward-item-${i}`}
                        options={scoreItems.items.map((o) => ({
                          value: o.id,
                          label: o.title,
                          disabled: chosen.has(o.id) && items[i]?.item_id !== o.id,
                        }))}
                      />
                    </Form.Item>
                    <Form.Item name={[f.name, 'weight']} rules={[{ required: true, message: '请输入权重' }]}>
                      <InputNumber
                        min={0.01}
                        max={100}
                        step={5}
                        precision={2}
                        addonAfter="%"
                        style={{ width: 140 }}
                        data-testid={`steward-weight-${i}`}
                      />
                    </Form.Item>
                    <Button
                      icon={<DeleteOutlined />}
                      disabled={fields.length <= 1}
                      onClick={() => remove(f.name)}
                      aria-label="去掉该项目"
                    />
                  </Space>
                ))}
                <Space wrap>
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => add({})}
                    disabled={fields.length >= scoreItems.items.length}
                    data-testid="steward-item-add"
                  >
                    添加项目
                  </Button>
                  <Button onClick={spread} disabled={!fields.length}>
                    平均分配权重
                  </Button>
                  <Typography.Text type={total === WEIGHT_FULL ? 'success' : 'danger'} data-testid="steward-weight-total">
                    权重合计 {total === null ? '—' : `${weightText(total)}%`}
                    {total !== null && total !== WEIGHT_FULL && '（须为 100%）'}
                  </Typography.Text>
                </Space>
              </div>
            )}
          </Form.List>
        </Form.Item>
        <Form.Item name="status" label="状态">
          <Radio.Group options={enumOptions(STEWARD_STATUS)} />
        </Form.Item>
        <Form.Item name="sort" label="排序" extra="小的在前">
          <InputNumber min={0} max={9999} />
        </Form.Item>
        <Form.Item wrapperCol={{ xs: { span: 24 }, sm: { offset: 4, span: 18 } }}>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="steward-save">
              保存
            </Button>
            <Button onClick={() => void navigate(STEWARD_LIST)}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
