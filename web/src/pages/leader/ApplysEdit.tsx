import { useEffect, useState } from 'react';
import { Alert, Form, InputNumber, Modal, Radio, Select, Switch } from 'antd';
import type { ButtonProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { enumOptions } from '@wuye/contract/kit/resource';
import { APPLYS_SCOPE, type ApplysItem } from '@wuye/contract/leader/applys';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useSmallList } from '../../components/resource';
import { validValues } from '../../utils/forms';
import { MenuIconSelect } from '../mobilesys/widgets';

interface EditForm {
  icon: string;
  sort: number;
  region_scope: ApplysItem['region_scope'];
  rids: number[];
  allow_hide: boolean;
  allow_reorder: boolean;
}

/** The group's settings of one service of the catalogue (applysedit), from the list or its detail page. */
export function ApplysEditModal({ item, onClose }: { item: ApplysItem | null; onClose: () => void }) {
  const [form] = Form.useForm<EditForm>();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const regions = useSmallList('bannerregion_small_list', item ? {} : null);
  const scope = Form.useWatch('region_scope', form);
  useEffect(() => {
    if (!item) return;
    form.setFieldsValue({
      icon: item.icon,
      sort: item.sort,
      region_scope: item.region_scope,
      rids: item.rids,
      allow_hide: item.allow_hide === 'Y',
      allow_reorder: item.allow_reorder === 'Y',
    });
  }, [item, form]);
  const save = async () => {
    if (!item) return;
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('applysedit', {
        code: item.code,
        icon: v.icon,
        sort: v.sort ?? 0,
        region_scope: v.region_scope,
        rids: v.region_scope === 'some' ? (v.rids ?? []) : [],
        allow_hide: v.allow_hide ? 'Y' : 'N',
        allow_reorder: v.allow_reorder ? 'Y' : 'N',
      });
      noticeSuccess(answer.return_msg);
      await queryClient.invalidateQueries({ queryKey: ['applyslist'] });
      await queryClient.invalidateQueries({ queryKey: ['applysinfo'] });
      onClose();
    } catch {
      /* the client showed why */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={!!item}
      title={item ? `应用设置：${item.title}` : ''}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okText="保存"
      cancelText="取消"
      okButtonProps={{ 'data-testid': 'applys-save' } as ButtonProps}
      destroyOnHidden
      width={520}
    >
      {item && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={`需要小区开通“${item.module_ch}”模块；未开通的小区即使在开放范围内也不能使用。`}
        />
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="icon" label="图标" rules={[{ required: true, message: '请选择图标' }]}>
          <MenuIconSelect data-testid="applys-icon" />
        </Form.Item>
        <Form.Item name="sort" label="集团排序" extra="数字小的在前">
          <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} data-testid="applys-sort" />
        </Form.Item>
        <Form.Item name="region_scope" label="开放范围">
          <Radio.Group options={enumOptions(APPLYS_SCOPE)} data-testid="applys-scope" />
        </Form.Item>
        {scope === 'some' && (
          <Form.Item name="rids" label="开放的小区" rules={[{ required: true, type: 'array', min: 1, message: '请选择开放的小区' }]}>
            <Select
              mode="multiple"
              options={regions.options}
              loading={regions.loading}
              optionFilterProp="label"
              placeholder="选择小区"
              data-testid="applys-rids"
            />
          </Form.Item>
        )}
        <Form.Item name="allow_hide" label="允许小区停用" valuePropName="checked" extra="不允许时，开放的小区必须展示此应用">
          <Switch data-testid="applys-allow-hide" />
        </Form.Item>
        <Form.Item name="allow_reorder" label="允许小区调整排序" valuePropName="checked" extra="不允许时，按集团排序展示">
          <Switch data-testid="applys-allow-reorder" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
