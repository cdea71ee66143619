import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Form, Space, Spin } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { formatWireDate } from '@wuye/contract/dates';
import { costRecord, type CostRecordRow } from '@wuye/contract/fees/costs';
import { call } from '../../../api/client';
import { PhotosInput } from '../../../components/PhotosInput';
import { ResourceFormItems, useResourceForm, type Widgets } from '../../../components/resource';
import { useSystem } from '../../../stores/system';
import { newIdempotencyKey } from '../money';
import { COST_LIST } from './CostDetailList';
import { FormItemSelect } from './widgets';

const widgets = {
  item_id: FormItemSelect,
  attachments: (p: object) => <PhotosInput {...p} max={9} testId="cost-attachments" />,
} as unknown as Widgets;

/**
 * /fees/costadd (?item_id= to start on an item) and /fees/costedit?id= (登记成本, 编辑成本;
 * docs/product.md#costs): the date, an enabled item, the amount, payee, method, handler (the
 * registering account when left empty), invoice number, photos of the receipts and a remark. A
 * registration carries one idempotency key while the page is open, so a retry after a lost answer
 * registers it once. A voided cost is not edited.
 */
export default function CostEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const startItem = Number(params.get('item_id')) || undefined;
  const navigate = useNavigate();
  const [key] = useState(newIdempotencyKey);
  // today of the community's time zone, wherever the browser is
  const zone = useSystem((st) => st.info?.time_zone) || undefined;
  const options = useMemo(
    () => ({
      inPage: true,
      defaults: () => ({ pay_date: formatWireDate(new Date(), zone), ...(startItem ? { item_id: startItem } : {}) }),
      // the edit's schema has no key: it is dropped there
      toPayload: (values: Record<string, unknown>) => ({ ...values, idempotency_key: key }),
      onSaved: () => void navigate(COST_LIST),
    }),
    [navigate, key, startItem, zone],
  );
  const f = useResourceForm<CostRecordRow>(costRecord, options);
  const row = useQuery({ queryKey: ['costinfo', id], queryFn: () => call('costinfo', { id }), enabled: id > 0, retry: false });
  const { open } = f;
  useEffect(() => {
    if (id === 0) open();
    else if (row.data) open(row.data);
  }, [id, row.data, open]);
  useEffect(() => {
    if (row.isError) void navigate(COST_LIST, { replace: true });
  }, [row.isError, navigate]);
  if (id > 0 && !row.data) return <Spin />;
  const editing = f.editing !== null && f.editing !== 'new';
  return (
    <Card variant="borderless" title={editing ? '编辑成本' : '登记成本'} data-testid="cost-form">
      <Form {...f.formProps} style={{ maxWidth: 640 }}>
        <ResourceFormItems
          resource={costRecord}
          form={f.form}
          widgets={widgets}
          editing={editing}
          row={row.data as Record<string, unknown> | undefined}
        />
        <Space>
          <Button type="primary" loading={f.saving} onClick={() => void f.submit()} data-testid="cost-save">
            保存
          </Button>
          <Button onClick={() => void navigate(COST_LIST)}>取消</Button>
        </Space>
      </Form>
    </Card>
  );
}
