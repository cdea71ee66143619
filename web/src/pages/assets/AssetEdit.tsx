import { useEffect, useMemo } from 'react';
import { Button, Card, Form, Space, Spin } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { asset, type AssetItem } from '@wuye/contract/assets/ledger';
import { call } from '../../api/client';
import { ResourceFormItems, useResourceForm } from '../../components/resource';

export const ASSET_LIST = '/carpark/device';

/**
 * /carpark/device_add and /carpark/device_edit?id= (新增/编辑设备; docs/product.md#equipment-ledger):
 * the ledger's fields. The place and the state are given when the asset is registered and change
 * afterwards only through 移动 and 状态变更 on the list (each logged), so an edit shows them fixed.
 */
export default function AssetEdit() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const options = useMemo(() => ({ inPage: true, onSaved: () => void navigate(ASSET_LIST) }), [navigate]);
  const f = useResourceForm<AssetItem>(asset, options);
  const row = useQuery({ queryKey: ['assetinfo', id], queryFn: () => call('assetinfo', { id }), enabled: id > 0, retry: false });
  const { open } = f;
  useEffect(() => {
    if (id === 0) open();
    else if (row.data) open(row.data);
  }, [id, row.data, open]);
  useEffect(() => {
    if (row.isError) void navigate(ASSET_LIST, { replace: true });
  }, [row.isError, navigate]);
  if (id > 0 && !row.data) return <Spin />;
  const editing = f.editing !== null && f.editing !== 'new';
  return (
    <Card variant="borderless" title={editing ? `编辑设备：${row.data?.name ?? ''}` : '新增设备'} data-testid="asset-form">
      <Form {...f.formProps} style={{ maxWidth: 640 }}>
        <ResourceFormItems resource={asset} form={f.form} editing={editing} row={row.data as Record<string, unknown> | undefined} />
        <Space>
          <Button type="primary" loading={f.saving} onClick={() => void f.submit()} data-testid="asset-save">
            保存
          </Button>
          <Button onClick={() => void navigate(ASSET_LIST)}>取消</Button>
        </Space>
      </Form>
    </Card>
  );
}
