import { Button, Form, Input, Tabs, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useSearchParams } from 'react-router';
import { couponRule, type CouponRuleGiveRow, type CouponRuleItem } from '@wuye/contract/cards/couponRules';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { ResourcePage } from '../../components/resource';

interface GiveFilters {
  keyword?: string;
}

/** 赠券记录: each payment that met a rule, what it gave, and what a void or refund took back. */
function Gives({ ruleId }: { ruleId: number }) {
  const list = useList('cardsrulegives', { rule_id: ruleId || undefined });
  const columns: TableColumnsType<CouponRuleGiveRow> = [
    { title: '收据号', dataIndex: 'receipt_no', width: 150, fixed: 'left' },
    { title: '规则', dataIndex: 'rule_name', width: 160 },
    { title: '房屋', dataIndex: 'address', width: 150 },
    { title: '业主', dataIndex: 'realname', width: 90 },
    { title: '手机号', dataIndex: 'mobile', width: 120 },
    { title: '计入月数', dataIndex: 'months', width: 90, align: 'right' },
    { title: '赠送张数', dataIndex: 'given', width: 90, align: 'right' },
    { title: '已收回', dataIndex: 'taken_back', width: 80, align: 'right' },
    {
      title: '说明',
      dataIndex: 'note',
      width: 260,
      render: (v: string) => (v.startsWith('未赠送') ? <Typography.Text type="danger">{v}</Typography.Text> : v),
    },
    { title: '时间', dataIndex: 'create_time', width: 170 },
  ];
  return (
    <TablePage<CouponRuleGiveRow, GiveFilters>
      testId="couponrule-gives"
      list={list}
      columns={columns}
      rowKey="id"
      onSearch={(v) => list.setFilters({ rule_id: ruleId || undefined, keyword: v.keyword?.trim() || undefined })}
      filters={
        <Form.Item name="keyword" label="关键字">
          <Input
            allowClear
            maxLength={30}
            placeholder="收据号、业主、手机号"
            style={{ width: 190 }}
            data-testid="couponrule-gives-keyword"
          />
        </Form.Item>
      }
    />
  );
}

/**
 * /carpark/cardsrule (赠券规则; docs/product.md#member-coupons): a payment at the cashier that pays
 * enough months of a fee item gives its owner a template's coupons, at once or one a month; 赠券记录
 * lists the payments that met a rule (?tab=gives, &rule= for one rule). Setting them up takes `cardcoupon`.
 */
export default function CouponRules() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'gives' ? 'gives' : 'rules';
  const ruleId = Number(params.get('rule')) || 0;
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setParams(k === 'gives' ? { tab: k } : {}, { replace: true })}
      items={[
        {
          key: 'rules',
          label: '赠券规则',
          children: (
            <ResourcePage<CouponRuleItem>
              resource={couponRule}
              title="赠券规则"
              columns={{ rule_text: { render: (v: string) => <Typography.Text strong>{v}</Typography.Text> } }}
              rowActions={(row) => (
                <Button
                  size="small"
                  type="link"
                  onClick={() => setParams({ tab: 'gives', rule: String(row.id) }, { replace: true })}
                  data-testid={`couponrule-gives-${row.id}`}
                >
                  赠券记录
                </Button>
              )}
            />
          ),
        },
        { key: 'gives', label: ruleId ? '赠券记录（当前规则）' : '赠券记录', children: <Gives key={ruleId} ruleId={ruleId} /> },
      ]}
    />
  );
}
