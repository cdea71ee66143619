import { Alert, Button, Card, Descriptions, Empty, Image, Result, Space, Spin } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { COST_STATUS, costRecord, costVoidFlow } from '@wuye/contract/fees/costs';
import { call } from '../../../api/client';
import { Money } from '../../../components/Money';
import { EnumTag, resourceKey, useCanWrite, WorkflowActions, WorkflowTimeline } from '../../../components/resource';
import { COST_LIST } from './CostDetailList';

/**
 * /fees/costinfo?id= (成本详情; docs/product.md#costs): one cost with its item, amount, payee and
 * method, the photos of its receipts, who registered it and, once voided, why, when and by whom;
 * its log (登记, 修改, 作废); 编辑 while registered and 作废 with a reason.
 */
export default function CostInfo() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const canWrite = useCanWrite(costRecord.def.roles.write);
  // under the resource's key: a void or an edit refreshes it with the list
  const q = useQuery({
    queryKey: [...resourceKey(costRecord.def.name), 'info', id],
    queryFn: () => call('costinfo', { id }),
    enabled: id > 0,
    retry: false,
  });
  const back = (
    <Button onClick={() => void navigate(COST_LIST)} data-testid="cost-back">
      返回列表
    </Button>
  );
  if (id === 0 || q.isError) return <Result status="warning" title="成本记录不存在" extra={back} />;
  const r = q.data;
  if (!r) return <Spin />;
  return (
    <Card
      variant="borderless"
      title={`成本详情 · ${r.item_name}`}
      data-testid="cost-detail"
      extra={
        <Space wrap>
          {canWrite && r.status === 'Y' && (
            <Button onClick={() => void navigate(`/fees/costedit?id=${r.id}`)} data-testid="cost-detail-edit">
              编辑
            </Button>
          )}
          <WorkflowActions flow={costVoidFlow} row={r as unknown as { id: number } & Record<string, unknown>} size="middle" />
          {back}
        </Space>
      }
    >
      {r.status === 'X' && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`已作废：${r.void_reason}`}
          description={`${r.voider} 于 ${r.void_time} 作废，不计入任何合计和统计`}
          data-testid="cost-void-alert"
        />
      )}
      <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2 }} data-testid="cost-fields">
        <Descriptions.Item label="付款日期">{r.pay_date}</Descriptions.Item>
        <Descriptions.Item label="状态">
          <EnumTag enum={COST_STATUS} value={r.status} />
        </Descriptions.Item>
        <Descriptions.Item label="成本项目">
          {r.category_name} / {r.item_name}
        </Descriptions.Item>
        <Descriptions.Item label="金额">
          <Money value={r.amount} unit="元" testId="cost-detail-amount" />
        </Descriptions.Item>
        <Descriptions.Item label="收款方">{r.payee}</Descriptions.Item>
        <Descriptions.Item label="付款方式">{r.pay_method_ch}</Descriptions.Item>
        <Descriptions.Item label="经办人">{r.handler}</Descriptions.Item>
        <Descriptions.Item label="发票号">{r.invoice_no || '-'}</Descriptions.Item>
        <Descriptions.Item label="登记人">{r.creator || '-'}</Descriptions.Item>
        <Descriptions.Item label="登记时间">{r.create_time}</Descriptions.Item>
        <Descriptions.Item label="备注" span={2}>
          {r.remark || '-'}
        </Descriptions.Item>
      </Descriptions>
      <Card type="inner" size="small" title="附件" style={{ marginTop: 16 }}>
        {r.attachments.length ? (
          <Image.PreviewGroup>
            <Space wrap data-testid="cost-detail-photos">
              {r.attachments.map((url, i) => (
                <Image key={url} src={url} width={96} height={96} style={{ objectFit: 'cover' }} alt={`附件${i + 1}`} />
              ))}
            </Space>
          </Image.PreviewGroup>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未上传附件" />
        )}
      </Card>
      <Card type="inner" size="small" title="处理记录" style={{ marginTop: 16 }}>
        <WorkflowTimeline flow={costVoidFlow} id={r.id} />
      </Card>
    </Card>
  );
}
