import { useMemo, useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Form, Grid, Input, Segmented, Select, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { OPERATION_RESULT, type OperationLogItem } from '@wuye/contract';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { EnumTag, rangePickerPresets } from '../../components/resource';
import { useSystem } from '../../stores/system';
import { useUser } from '../../stores/user';

interface Filters {
  dates?: [Dayjs, Dayjs] | null;
  operator?: string;
  action?: string;
  result?: '' | 'Y' | 'N';
  keyword?: string;
  rid?: number;
}

/** 登录日志 is the log's sign-ins only: the rows of the method login, successful or refused. */
type LogTab = 'all' | 'login';

const toFilters = (v: Filters, tab: LogTab) => ({
  sort: 'desc' as const,
  create_time:
    v.dates?.[0] && v.dates[1] ? ([v.dates[0].format('YYYY-MM-DD'), v.dates[1].format('YYYY-MM-DD')] as [string, string]) : undefined,
  operator: v.operator || undefined,
  action: tab === 'login' ? 'login' : v.action || undefined,
  result: v.result || undefined,
  keyword: v.keyword || undefined,
  rid: v.rid,
});

const operatorOf = (r: OperationLogItem) => (r.operator_name ? `${r.operator_name}（${r.username}）` : r.username);

/**
 * The operation log (/setup/operationlog): every write's audit row, newest first, read only. The
 * community side sees its own community and exports it; the group side sees its communities and
 * its accounts' sign-ins, with a community filter. A row's whole payload opens in a drawer. The
 * 登录日志 tab shows the sign-ins alone (who, where from, refused or not); the log is never purged,
 * so it holds far more than the 180 days a sign-in record must be kept.
 */
export default function OperationLog() {
  const isGroup = useUser((s) => s.side) === 'group';
  const list = useList('operationloglist', { sort: 'desc' });
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  const presets = useMemo(() => rangePickerPresets(zone), [zone]);
  const phone = Grid.useBreakpoint().md === false;
  const [shown, setShown] = useState<OperationLogItem | null>(null);
  const [tab, setTab] = useState<LogTab>('all');
  const [form] = Form.useForm<Filters>();
  const logins = tab === 'login';
  const actions = useQuery({
    queryKey: ['operationlog_small_list'],
    queryFn: () => call('operationlog_small_list', {}),
    staleTime: Infinity,
    retry: false,
  });
  const regions = useList('leaderregionlist', { title: '' }, { limit: 200, enabled: isGroup });
  const more = list.answer?.more ?? false;

  const switchTab = (next: LogTab) => {
    setTab(next);
    list.setFilters(toFilters(form.getFieldsValue(), next));
  };

  const columns: TableColumnsType<OperationLogItem> = [
    { title: '时间', dataIndex: 'create_time', width: 170 },
    { title: logins ? '账号' : '操作人', key: 'operator', width: 150, render: (_, r) => operatorOf(r) },
    ...(isGroup ? [{ title: '小区', dataIndex: 'region_title', width: 110 }] : []),
    ...(logins
      ? []
      : [
          {
            title: '操作',
            dataIndex: 'action',
            width: 200,
            render: (a: string, r: OperationLogItem) => (
              <span title={r.method} data-testid={`oplog-action-${r.id}`}>
                {a}
              </span>
            ),
          },
          { title: '对象/摘要', dataIndex: 'summary', width: 220, ellipsis: true },
        ]),
    { title: '结果', dataIndex: 'result', width: 80, render: (v: string) => <EnumTag enum={OPERATION_RESULT} value={v} /> },
    { title: '说明', dataIndex: 'message', width: 220, ellipsis: true },
    { title: 'IP', dataIndex: 'ip', width: 130 },
    {
      title: '操作',
      key: 'op',
      width: 80,
      fixed: phone ? undefined : 'right',
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setShown(r)} data-testid={`oplog-detail-${r.id}`}>
          详情
        </Button>
      ),
    },
  ];

  return (
    <>
      <TablePage<OperationLogItem, Filters>
        testId="oplog-page"
        title={
          <Segmented<LogTab>
            value={tab}
            onChange={switchTab}
            options={[
              { value: 'all', label: '操作日志' },
              { value: 'login', label: '登录日志' },
            ]}
            data-testid="oplog-tab"
          />
        }
        form={form}
        list={list}
        columns={columns}
        rowKey="id"
        totalText={(total) => (more ? `共 ${total}+ 条，请按时间范围缩小` : `共 ${total} 条`)}
        onSearch={(v) => list.setFilters(toFilters(v, tab))}
        onExport={isGroup ? undefined : (v) => runExport('operationlogexport', toFilters(v, tab))}
        filters={
          <>
            <Form.Item name="dates" label="时间范围">
              <DatePicker.RangePicker presets={presets} inputReadOnly allowClear style={{ maxWidth: 260 }} data-testid="oplog-dates" />
            </Form.Item>
            <Form.Item name="operator" label="操作人">
              <Input allowClear placeholder="姓名或账号" style={{ width: 130 }} data-testid="oplog-operator" />
            </Form.Item>
            <Form.Item name="action" label="操作" hidden={logins}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="全部操作"
                style={{ width: 200 }}
                loading={actions.isFetching}
                options={actions.data?.items}
                data-testid="oplog-action"
              />
            </Form.Item>
            <Form.Item name="result" label="结果">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 90 }}
                options={Object.entries(OPERATION_RESULT).map(([value, e]) => ({ value, label: e.text }))}
                data-testid="oplog-result"
              />
            </Form.Item>
            <Form.Item name="keyword" label="关键字" tooltip="在说明与提交内容中查找；需选择不超过 31 天的时间范围">
              <Input allowClear placeholder="单号、房号、说明…" style={{ width: 150 }} data-testid="oplog-keyword" />
            </Form.Item>
            {isGroup && (
              <Form.Item name="rid" label="小区">
                <Select
                  allowClear
                  placeholder="全部小区"
                  style={{ width: 160 }}
                  options={regions.items.map((r) => ({ value: r.id, label: r.title }))}
                  data-testid="oplog-region"
                />
              </Form.Item>
            )}
          </>
        }
      />
      <Drawer
        title="操作详情"
        open={shown !== null}
        onClose={() => setShown(null)}
        size={phone ? '85%' : 640}
        placement={phone ? 'bottom' : 'right'}
        data-testid="oplog-drawer"
      >
        {shown && (
          <>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="时间">{shown.create_time}</Descriptions.Item>
              <Descriptions.Item label="操作人">{operatorOf(shown)}</Descriptions.Item>
              <Descriptions.Item label="小区">{shown.region_title}</Descriptions.Item>
              <Descriptions.Item label="操作">
                {shown.action} <Typography.Text type="secondary">（{shown.method}）</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label="结果">
                <EnumTag enum={OPERATION_RESULT} value={shown.result} />
                {shown.result === 'N' && <Typography.Text type="secondary">{shown.outcome}</Typography.Text>}
              </Descriptions.Item>
              <Descriptions.Item label="说明">{shown.message}</Descriptions.Item>
              <Descriptions.Item label="IP">{shown.ip}</Descriptions.Item>
            </Descriptions>
            <Typography.Title level={5} style={{ marginTop: 16 }}>
              提交内容
            </Typography.Title>
            <pre
              className="oplog-payload"
              data-testid="oplog-payload"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}
            >
              {shown.payload}
            </pre>
          </>
        )}
      </Drawer>
    </>
  );
}
