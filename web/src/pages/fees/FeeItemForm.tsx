import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PRICING, type PricingMethod } from '@wuye/contract/fees';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import MoneyInput from '../../components/MoneyInput';
import { useSmallList } from '../../components/resource';
import { invalidateResource } from '../../components/resource';
import { validValues } from '../../utils/forms';

interface ItemForm {
  cost_type: string;
  title: string;
  pricing: PricingMethod;
  unit_price: string;
  default_quantity: string;
  cycle_months: number;
  due_day: number;
  late_fee_rule: 'none' | 'daily';
  late_fee_rate: string;
  late_fee_grace_days: number;
  late_fee_cap_percent: number;
  status: 'Y' | 'N';
  remark: string;
}

const DEFAULTS: ItemForm = {
  cost_type: 'property',
  title: '',
  pricing: 'area_built',
  unit_price: '',
  default_quantity: '0',
  cycle_months: 1,
  due_day: 15,
  late_fee_rule: 'none',
  late_fee_rate: '0',
  late_fee_grace_days: 0,
  late_fee_cap_percent: 0,
  status: 'Y',
  remark: '',
};

const PRICE_RE = /^\d{1,10}(\.\d{1,4})?$/;

/** Add / edit a fee item (/fees/feeitemadd, /fees/feeitemedit?id=). Issued bills keep their old price. */
export default function FeeItemForm() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const costTypes = useSmallList('feebill_cate_small_list', {}).items;
  const [form] = Form.useForm<ItemForm>();
  const [saving, setSaving] = useState(false);
  const pricing = Form.useWatch('pricing', form);
  const rule = Form.useWatch('late_fee_rule', form);

  useEffect(() => {
    if (!id) {
      // a new item starts from the community's default due day (/setup/setfees)
      call('feesettinginfo', {}, { silent: true })
        .then((s) => form.setFieldValue('due_day', s.default_due_day))
        .catch(() => undefined);
      return;
    }
    call('feeiteminfo', { id })
      .then((r) => form.setFieldsValue(r))
      .catch(() => undefined);
  }, [id, form]);

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = id ? await request('feeitemedit', { ...v, id }) : await request('feeitemadd', v);
      noticeSuccess(answer.return_msg ?? '操作成功');
      void queryClient.invalidateQueries({ queryKey: ['list', 'feeitemlist'] });
      void invalidateResource(queryClient, 'feeitem');
      void navigate('/fees/feeitemlist');
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={id ? '编辑收费项目' : '新增收费项目'} data-testid="feeitem-form">
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 12 }} initialValues={DEFAULTS}>
        <Form.Item name="cost_type" label="费用类型" rules={[{ required: true, message: '请选择费用类型' }]}>
          <Select options={costTypes.map((c) => ({ value: c.cost_type, label: c.title }))} data-testid="item-cost-type" />
        </Form.Item>
        <Form.Item name="title" label="项目名称" rules={[{ required: true, max: 30, message: '请输入项目名称（最多30字）' }]}>
          <Input data-testid="item-title" />
        </Form.Item>
        <Form.Item name="pricing" label="计费方式">
          <Radio.Group options={enumOptions(PRICING)} data-testid="item-pricing" />
        </Form.Item>
        <Form.Item
          name="unit_price"
          label={pricing === 'fixed' ? '每期金额（元/月）' : '单价（元/月）'}
          extra="最多四位小数"
          rules={[{ required: true, pattern: PRICE_RE, message: '请输入不小于0、最多四位小数的单价' }]}
        >
          <Input inputMode="decimal" style={{ width: 180 }} data-testid="item-price" />
        </Form.Item>
        {(pricing === 'meter' || pricing === 'quantity') && (
          <Form.Item name="default_quantity" label="默认数量" extra="没有抄表读数时按此数量出账">
            <MoneyInput style={{ width: 180 }} />
          </Form.Item>
        )}
        <Form.Item name="cycle_months" label="计费周期(月)">
          <InputNumber min={1} max={12} />
        </Form.Item>
        <Form.Item name="due_day" label="缴费截止日" extra="账期首月的第几天">
          <InputNumber min={1} max={28} />
        </Form.Item>
        <Form.Item name="late_fee_rule" label="滞纳金">
          <Radio.Group
            options={[
              { value: 'none', label: '不收' },
              { value: 'daily', label: '按日计收' },
            ]}
            data-testid="item-late-rule"
          />
        </Form.Item>
        {rule === 'daily' && (
          <>
            <Form.Item name="late_fee_rate" label="日费率(‰)" rules={[{ required: true, pattern: PRICE_RE, message: '请输入日费率' }]}>
              <Input style={{ width: 180 }} data-testid="item-late-rate" />
            </Form.Item>
            <Form.Item name="late_fee_grace_days" label="宽限天数">
              <InputNumber min={0} max={365} />
            </Form.Item>
            <Form.Item name="late_fee_cap_percent" label="封顶(%)" extra="不超过账单金额的百分比，0 为不封顶">
              <InputNumber min={0} max={1000} />
            </Form.Item>
          </>
        )}
        <Form.Item name="status" label="状态">
          <Radio.Group
            options={[
              { value: 'Y', label: '启用' },
              { value: 'N', label: '停用' },
            ]}
          />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item wrapperCol={{ sm: { offset: 5 } }}>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="item-save">
              保存
            </Button>
            <Button onClick={() => void navigate('/fees/feeitemlist')}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
