import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Form, Input, Select, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { enumOptions } from '@wuye/contract/kit/resource';
import { INVOICE_APPLY_STATUS, INVOICE_KIND, TITLE_KIND, invoiceApplyFlow, type InvoiceApplyRow } from '@wuye/contract/invoice/invoices';
import { call } from '../../api/client';
import { useList } from '../../api/useList';
import { Money, formatMoney, moneyColumn } from '../../components/Money';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { EnumTag, WorkflowActions, WorkflowTimeline } from '../../components/resource';
import { ApplyLinesTable } from './parts';

interface Filters {
  status?: '' | InvoiceApplyRow['status'];
  keyword?: string;
}

/** 开票申请: applications for an owner's invoice, reviewed through the invoiceapply workflow (approve issues the invoice). */
export default function ApplyList() {
  const list = useList('invoiceapplylist', { sort: 'desc' });
  const actionFixed = useActionFixed();
  const [params, setParams] = useSearchParams();
  const [viewingId, setViewingId] = useState<number | null>(null);
  // a to-do's link (/invoice/invoicewaitlist?tab=apply&id=7) opens the application
  useEffect(() => {
    const id = Number(params.get('id'));
    if (id > 0) setViewingId(id);
  }, [params]);
  // the list answers the applications without their lines: the drawer reads the whole one
  const info = useQuery({
    queryKey: ['invoiceapplyinfo', viewingId],
    queryFn: () => call('invoiceapplyinfo', { id: viewingId! }),
    enabled: viewingId !== null,
    retry: false,
  });
  const viewing =
    viewingId === null ? null : info.data?.id === viewingId ? info.data : (list.items.find((r) => r.id === viewingId) ?? null);
  const close = () => {
    setViewingId(null);
    if (params.get('id')) setParams({ tab: 'apply' }, { replace: true });
  };
  const refresh = () => {
    list.reload();
    close();
  };
  // an application that cannot be read (gone, another community's): the client has said why
  useEffect(() => {
    if (info.isError && !list.items.some((r) => r.id === viewingId)) close();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [info.isError]);
  const actions = (r: InvoiceApplyRow) =>
    r.mine && r.status === 'W' ? (
      <Typography.Text type="secondary" data-testid={`invoiceapply-mine-${r.id}`}>
        本人申请
      </Typography.Text>
    ) : (
      <WorkflowActions flow={invoiceApplyFlow} row={r as unknown as { id: number } & Record<string, unknown>} onDone={refresh} />
    );

  const columns: TableColumnsType<InvoiceApplyRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '房屋', dataIndex: 'address', width: 150 },
    { title: '业主', dataIndex: 'owner_name', width: 90 },
    { title: '类型', dataIndex: 'buyer_kind', width: 70, render: (v: string) => <EnumTag enum={TITLE_KIND} value={v} /> },
    { title: '发票抬头', dataIndex: 'buyer_title', width: 180, ellipsis: true },
    { title: '纳税人识别号', dataIndex: 'buyer_tax_no', width: 180 },
    moneyColumn('申请金额', 'amount', { width: 110 }),
    { title: '发票种类', dataIndex: 'kind', width: 100, render: (v: string) => <EnumTag enum={INVOICE_KIND} value={v} /> },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: string) => <EnumTag enum={INVOICE_APPLY_STATUS} value={v} /> },
    {
      title: '发票号码',
      dataIndex: 'invoice_nos',
      width: 180,
      render: (v: string) => v || <Typography.Text type="secondary">未开具</Typography.Text>,
    },
    { title: '申请人', dataIndex: 'applicant', width: 90 },
    { title: '申请时间', dataIndex: 'create_time', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 220,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => setViewingId(r.id)} data-testid={`invoiceapply-info-${r.id}`}>
            详情
          </Button>
          {actions(r)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<InvoiceApplyRow, Filters>
        testId="invoiceapply-page"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'desc', status: v.status ?? '', keyword: v.keyword?.trim() || undefined })}
        filters={
          <>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear maxLength={40} placeholder="房号、业主、抬头" style={{ width: 170 }} />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select
                allowClear
                style={{ width: 110 }}
                options={enumOptions(INVOICE_APPLY_STATUS)}
                data-testid="invoiceapply-filter-status"
              />
            </Form.Item>
          </>
        }
      />
      <Drawer
        open={viewingId !== null}
        onClose={close}
        title={viewing ? `开票申请 #${viewing.id} · ${formatMoney(viewing.amount, { unit: '元' })}` : ''}
        size="large"
        destroyOnHidden
        extra={viewing && actions(viewing)}
        data-testid="invoiceapply-drawer"
      >
        {viewing && (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
              <Descriptions.Item label="房屋">{viewing.address}</Descriptions.Item>
              <Descriptions.Item label="业主">{viewing.owner_name}</Descriptions.Item>
              <Descriptions.Item label="状态">
                <EnumTag enum={INVOICE_APPLY_STATUS} value={viewing.status} />
              </Descriptions.Item>
              <Descriptions.Item label="发票种类">{viewing.kind_ch}</Descriptions.Item>
              <Descriptions.Item label="抬头类型">{viewing.buyer_kind_ch}</Descriptions.Item>
              <Descriptions.Item label="发票抬头">{viewing.buyer_title}</Descriptions.Item>
              <Descriptions.Item label="纳税人识别号">{viewing.buyer_tax_no || '-'}</Descriptions.Item>
              <Descriptions.Item label="地址电话">{viewing.buyer_address_phone || '-'}</Descriptions.Item>
              <Descriptions.Item label="开户行及账号">{viewing.buyer_bank_account || '-'}</Descriptions.Item>
              <Descriptions.Item label="邮箱 / 手机">
                {[viewing.buyer_email, viewing.buyer_mobile].filter(Boolean).join(' / ') || '-'}
              </Descriptions.Item>
              <Descriptions.Item label="申请金额">
                <Money value={viewing.amount} unit="元" />
              </Descriptions.Item>
              <Descriptions.Item label="发票号码">{viewing.invoice_nos || '-'}</Descriptions.Item>
              <Descriptions.Item label="申请人">
                {viewing.applicant} · {viewing.create_time}
              </Descriptions.Item>
              <Descriptions.Item label="审核">
                {viewing.reviewer
                  ? `${viewing.reviewer} · ${viewing.review_time}${viewing.review_remark ? `：${viewing.review_remark}` : ''}`
                  : '-'}
              </Descriptions.Item>
              {!!viewing.remark && <Descriptions.Item label="备注">{viewing.remark}</Descriptions.Item>}
            </Descriptions>
            <Typography.Title level={5}>开票明细</Typography.Title>
            <ApplyLinesTable lines={viewing.lines} loading={info.isFetching} />
            <Typography.Title level={5}>审核记录</Typography.Title>
            <WorkflowTimeline flow={invoiceApplyFlow} id={viewing.id} />
          </Space>
        )}
      </Drawer>
    </>
  );
}
