import type { ButtonProps } from 'antd';
import { useState } from 'react';
import { Button, DatePicker, Drawer, Form, Input, List, Popconfirm, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  merchant,
  merchantServiceFlow,
  MERCHANT_SERVICE_STATUS,
  type MerchantItem,
  type MerchantServiceItem,
} from '@wuye/contract/cards/merchants';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { EnumTag, invalidateResource, resourceKey, useCanWrite, useSmallList, WorkflowActions } from '../../components/resource';

/** The service areas' lists are the merchants' resource's: a decision refreshes the merchant list's 服务小区 too. */
const servicesKey = (params: object) => [...resourceKey(merchant.def.name), 'services', params];

function useServices(params: { merchant_id?: number; status?: 'E' }, enabled = true) {
  return useQuery({
    queryKey: servicesKey(params),
    queryFn: () => call('merchantservicelist', { limit: 100, sort: 'desc', ...params }),
    enabled,
    refetchOnWindowFocus: false,
  });
}

/** A service area's validity, the asking side's note and the decision (who, when, a refusal's reason). */
function ServiceLines({ row: r }: { row: MerchantServiceItem }) {
  return (
    <Space orientation="vertical" size={0}>
      <span>
        有效期 {r.valid_from} 至 {r.valid_to}
        {r.remark ? `，${r.remark}` : ''}
      </span>
      {r.decided_time && (
        <span>
          {r.status_ch}：{r.decided_by} {r.decided_time.slice(0, 16)}
          {r.reason ? `，原因：${r.reason}` : ''}
        </span>
      )}
    </Space>
  );
}

/**
 * 服务小区 of one merchant of the community: the other communities of the group it serves or asked
 * to, with their validity and the served community's decision; a manager (merchantset) asks for
 * another community and withdraws a request or ends a service.
 */
export function MerchantServicesDrawer({ row, onClose }: { row: MerchantItem | null; onClose: () => void }) {
  const canWrite = useCanWrite(merchant.def.roles.write);
  const queryClient = useQueryClient();
  const services = useServices({ merchant_id: row?.id }, !!row);
  const regions = useSmallList('merchant_region_small_list', row ? {} : null);
  const [form] = Form.useForm<{ rid?: number; range?: [Dayjs, Dayjs]; remark?: string }>();
  const [busy, setBusy] = useState(false);
  const changed = () => invalidateResource(queryClient, merchant.def.name);

  const ask = async () => {
    const v = await form.validateFields();
    if (!row || !v.rid || !v.range) return;
    setBusy(true);
    try {
      const res = await request('merchantserviceadd', {
        merchant_id: row.id,
        rid: v.rid,
        valid_from: v.range[0].format('YYYY-MM-DD'),
        valid_to: v.range[1].format('YYYY-MM-DD'),
        remark: v.remark ?? '',
      });
      noticeSuccess(res.return_msg);
      form.resetFields();
      await changed();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const withdraw = async (id: number) => {
    try {
      noticeSuccess((await request('merchantservicedel', { id })).return_msg);
      await changed();
    } catch {
      /* shown by the client */
    }
  };

  return (
    <Drawer
      open={!!row}
      onClose={onClose}
      title={`服务小区 · ${row?.merchant ?? ''}`}
      size={640}
      destroyOnHidden
      data-testid="merchant-services"
    >
      <Typography.Paragraph type="secondary">
        商户默认服务所在小区。服务本集团的其他小区须由该小区审核通过，在有效期内为该小区业主服务。
      </Typography.Paragraph>
      {canWrite && row?.status === 'Y' && (
        <Form form={form} layout="inline" style={{ marginBottom: 16, rowGap: 8 }} data-testid="merchant-service-form">
          <Form.Item name="rid" rules={[{ required: true, message: '请选择小区' }]}>
            <Select options={regions.options} placeholder="选择小区" style={{ width: 150 }} data-testid="merchant-service-region" />
          </Form.Item>
          <Form.Item name="range" rules={[{ required: true, message: '请选择有效期' }]}>
            <DatePicker.RangePicker inputReadOnly data-testid="merchant-service-range" />
          </Form.Item>
          <Form.Item name="remark">
            <Input maxLength={200} placeholder="说明（可选）" style={{ width: 160 }} />
          </Form.Item>
          <Button type="primary" loading={busy} onClick={() => void ask()} data-testid="merchant-service-add">
            申请服务
          </Button>
        </Form>
      )}
      <List<MerchantServiceItem>
        loading={services.isFetching}
        dataSource={services.data?.items ?? []}
        locale={{ emptyText: '只服务所在小区' }}
        data-testid="merchant-services-table"
        renderItem={(r) => (
          <List.Item
            data-testid={`merchant-service-${r.id}`}
            actions={
              canWrite
                ? [
                    <Popconfirm
                      key="del"
                      title={r.status === 'Y' ? `结束为${r.region_title}服务？` : '撤销该申请？'}
                      onConfirm={() => withdraw(r.id)}
                      okButtonProps={{ 'data-testid': `merchant-service-del-ok-${r.id}` } as ButtonProps}
                    >
                      <Button size="small" danger data-testid={`merchant-service-del-${r.id}`}>
                        {r.status === 'Y' ? '结束服务' : '撤销'}
                      </Button>
                    </Popconfirm>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <Space>
                  <span>{r.region_title}</span>
                  <EnumTag enum={MERCHANT_SERVICE_STATUS} value={r.status} />
                </Space>
              }
              description={<ServiceLines row={r} />}
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}

/** How many requests of other communities' merchants wait for this community's decision. */
export function usePendingServices(enabled: boolean) {
  const q = useServices({ status: 'E' }, enabled);
  return q.data?.total ?? 0;
}

/**
 * 服务申请: other communities' merchants asking to serve this one, decided here (通过, or 驳回 with
 * a reason) by a manager holding merchantset.
 */
export function ServiceRequestsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const services = useServices({}, open);
  const queryClient = useQueryClient();
  return (
    <Drawer open={open} onClose={onClose} title="其他小区商户的服务申请" size={640} destroyOnHidden data-testid="merchant-requests">
      <List<MerchantServiceItem>
        loading={services.isFetching}
        dataSource={services.data?.items ?? []}
        locale={{ emptyText: '没有其他小区商户的服务申请' }}
        data-testid="merchant-requests-table"
        renderItem={(r) => (
          <List.Item
            data-testid={`merchant-request-${r.id}`}
            actions={[
              <WorkflowActions
                key="flow"
                flow={merchantServiceFlow}
                row={r as unknown as { id: number } & Record<string, unknown>}
                resource={merchant.def.name}
                onDone={() => void invalidateResource(queryClient, merchant.def.name)}
              />,
            ]}
          >
            <List.Item.Meta
              title={
                <Space wrap>
                  <span>{r.merchant}</span>
                  <Typography.Text type="secondary">
                    {r.merchant_region_title} · {r.kind_ch}
                  </Typography.Text>
                  <EnumTag enum={MERCHANT_SERVICE_STATUS} value={r.status} />
                </Space>
              }
              description={<ServiceLines row={r} />}
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
