import { useEffect, useMemo } from 'react';
import { Alert, Button, Card, Divider, Form, Space, Spin } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { MOBILE_RE } from '@wuye/contract/owners';
import { crmCustomer, type CrmCustomerItem } from '@wuye/contract/crm/sales';
import { call } from '../../../api/client';
import { ResourceFormItems, useResourceForm } from '../../../components/resource';
import { customerWidgets, withoutFields } from './parts';
import './sales.css';

const LIST = '/crm/crm';

/** The form's sections: each a part of the description's fields, in its order. */
const SECTIONS: Array<{ title: string; keys: string[] }> = [
  { title: '基本信息', keys: ['name', 'gender', 'mobile', 'phones', 'wechat', 'id_card'] },
  { title: '意向信息', keys: ['product', 'area_min', 'area_max', 'layout', 'budget_min', 'budget_max', 'purpose', 'hid'] },
  { title: '来源与分级', keys: ['source', 'channel', 'grade', 'consultant_id', 'tags', 'remark'] },
];
const sectionOf = (keys: string[]) =>
  withoutFields(
    crmCustomer,
    Object.keys(crmCustomer.def.fields).filter((k) => !keys.includes(k)),
  );
const PARTS = SECTIONS.map((s) => ({ ...s, resource: sectionOf(s.keys) }));

/**
 * The mobile typed, looked up: an existing customer is named with its consultant, and opened when
 * the reader may (their own, the pool's, or a manager).
 */
function KnownMobile({ mobile, except }: { mobile: string; except: number }) {
  const navigate = useNavigate();
  const valid = MOBILE_RE.test(mobile);
  const q = useQuery({
    queryKey: ['crmcheckmobile', mobile, except],
    queryFn: () => call('crmcheckmobile', { mobile, except_id: except || '' }),
    enabled: valid,
    retry: false,
  });
  const hit = valid ? q.data?.hit : null;
  if (!hit) return null;
  const who = hit.in_pool ? '在公海中' : `置业顾问：${hit.consultant_name}`;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="crm-known-mobile"
      title={`该手机号已登记为客户「${hit.name}」（${who}，阶段：${hit.stage_ch}）`}
      description={
        hit.can_open ? '同一小区内手机号不能重复，请打开已有客户继续跟进。' : '该客户由其他置业顾问负责，如需接手请联系销售经理分配。'
      }
      action={
        hit.can_open ? (
          <Button size="small" type="primary" onClick={() => void navigate(`/crm/crm_show?id=${hit.id}`)} data-testid="crm-known-open">
            打开该客户
          </Button>
        ) : undefined
      }
    />
  );
}

/**
 * /crm/addcrm and /crm/editcrm?id= (新增/编辑客户; docs/product.md#crm-sales): 基本信息, 意向信息,
 * 来源与分级; a mobile already registered is named as it is typed, with the way to open it.
 */
export default function CustomerEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const options = useMemo(
    () => ({ inPage: true, onSaved: (saved: number | undefined) => void navigate(saved ? `/crm/crm_show?id=${saved}` : LIST) }),
    [navigate],
  );
  const f = useResourceForm<CrmCustomerItem>(crmCustomer, options);
  const row = useQuery({ queryKey: ['crminfo', id], queryFn: () => call('crminfo', { id }), enabled: id > 0, retry: false });
  const { open } = f;
  useEffect(() => {
    if (id === 0) open();
    else if (row.data) open(row.data);
  }, [id, row.data, open]);
  useEffect(() => {
    if (row.isError) void navigate(LIST, { replace: true });
  }, [row.isError, navigate]);
  const mobile = (Form.useWatch('mobile', f.form) as string | undefined) ?? '';
  if (id > 0 && !row.data) return <Spin />;
  const editing = f.editing !== null && f.editing !== 'new';
  return (
    <Card variant="borderless" title={editing ? `编辑客户：${row.data?.name ?? ''}` : '新增客户'} data-testid="crmcustomer-form">
      <Form {...f.formProps} style={{ maxWidth: 960 }}>
        <KnownMobile mobile={mobile.trim()} except={id} />
        {PARTS.map((part) => (
          <div key={part.title} className="crm-sales-section">
            <Divider titlePlacement="start" plain>
              {part.title}
            </Divider>
            <div className="crm-sales-grid">
              <ResourceFormItems
                resource={part.resource}
                form={f.form}
                widgets={customerWidgets}
                editing={editing}
                row={row.data as Record<string, unknown> | undefined}
              />
            </div>
          </div>
        ))}
        <Space>
          <Button type="primary" loading={f.saving} onClick={() => void f.submit()} data-testid="crmcustomer-save">
            保存
          </Button>
          <Button onClick={() => void navigate(id ? `/crm/crm_show?id=${id}` : LIST)}>取消</Button>
        </Space>
      </Form>
    </Card>
  );
}
