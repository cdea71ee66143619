import { useMemo } from 'react';
import { Table } from 'antd';
import type { PropertyPayCountRow, PropertyPayCountTotals } from '@wuye/contract/fees';
import { Money, moneyColumn } from '../../../components/Money';
import { panelTree, placeOf } from './panelTree';

const MONEY = ['arrears_before', 'receivable', 'received', 'received_current', 'recovered', 'prepaid'] as const;

/**
 * 物业费收缴统计's table: buildings with their units, the money columns and the totals row; the
 * community's report (/feecounts/propertypaycount) and the group fee summary's drill-down draw it.
 */
export function PropertyPayCountTable({
  rows,
  totals,
  loading,
  testId,
  totalsTestId,
}: {
  rows: readonly PropertyPayCountRow[];
  totals: PropertyPayCountTotals | undefined;
  loading: boolean;
  testId: string;
  totalsTestId: string;
}) {
  const tree = useMemo(() => panelTree([...rows]), [rows]);
  return (
    <Table<PropertyPayCountRow & { key: string }>
      rowKey="key"
      size="small"
      loading={loading}
      dataSource={tree}
      pagination={false}
      scroll={{ x: 'max-content' }}
      data-testid={testId}
      columns={[
        { title: '楼栋 / 单元', key: 'place', render: (_: unknown, r) => placeOf(r) },
        moneyColumn('期初欠费', 'arrears_before'),
        moneyColumn('应收', 'receivable'),
        moneyColumn('实收', 'received'),
        moneyColumn('其中当期', 'received_current'),
        moneyColumn('其中清欠', 'recovered'),
        moneyColumn('其中预收', 'prepaid'),
        { title: '收缴率', dataIndex: 'rate', key: 'rate', align: 'right', render: (v: string) => `${v}%` },
      ]}
      summary={() =>
        totals && (
          <Table.Summary.Row data-testid={totalsTestId}>
            <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
            {MONEY.map((k, i) => (
              <Table.Summary.Cell key={k} index={1 + i} align="right">
                <Money value={totals[k]} />
              </Table.Summary.Cell>
            ))}
            <Table.Summary.Cell index={7} align="right">
              {totals.rate}%
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )
      }
    />
  );
}
