import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Select, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { schedule, shift, type ScheduleGridAnswer, type ScheduleGridRow, type ScheduleItem } from '@wuye/contract/setup/roster';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { resourceKey, ResourcePage } from '../../components/resource';
import { DepartmentSelect } from '../team/DepartmentSelect';
import './roster.css';

interface GridFilters {
  month: string;
  schedule_id?: number;
  account_id?: number;
  dept_id?: number;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of its own holding only the month's table, printed for posting in the guard booth. */
function printGrid(grid: ScheduleGridAnswer, title: string): void {
  const head = grid.days.map((d) => `<th class="${d.weekday >= 5 ? 'we' : ''}">${d.day}<br>${d.weekday_ch}</th>`).join('');
  const rows = grid.items
    .map(
      (r) =>
        `<tr><th class="name">${escapeHtml(r.name)}</th>${r.cells
          .map((c) => `<td class="${c.state}">${escapeHtml(c.text)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  const legend = grid.shifts.map((s) => `${escapeHtml(s.name)}：${escapeHtml(s.times)}`).join('&emsp;');
  const w = window.open('', '_blank');
  if (!w) return;
  w.document.write(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
    body{font-family:sans-serif;margin:12px} h1{font-size:18px;text-align:center;margin:4px 0 8px}
    table{border-collapse:collapse;width:100%;font-size:12px} th,td{border:1px solid #333;padding:3px 2px;text-align:center}
    th.name{white-space:nowrap;padding:3px 6px} th.we{background:#eee} td.rest{font-weight:bold;background:#f3f3f3}
    p{font-size:12px} @page{size:A4 landscape;margin:8mm}
  </style></head><body><h1>${escapeHtml(title)}</h1><table><thead><tr><th>姓名</th>${head}</tr></thead><tbody>${rows}</tbody></table>
  <p>${legend}&emsp;休：休息</p></body></html>`);
  w.document.close();
  w.focus();
  w.print();
}

/** 排班表: staff by day of a month, the shift's name or 休; filters, export (a job) and a printable page. */
function MonthGrid() {
  const [filters, setFilters] = useState<GridFilters>({ month: dayjs().format('YYYY-MM') });
  const schedules = useQuery({ queryKey: [...resourceKey('schedule'), 'all'], queryFn: () => call('schedulelist', { limit: 200 }) });
  const staff = useQuery({ queryKey: ['schedule_staff_small_list'], queryFn: () => call('schedule_staff_small_list', {}) });
  const grid = useQuery({ queryKey: [...resourceKey('schedule'), 'grid', filters], queryFn: () => call('schedulegrid', filters) });
  const data = grid.data;
  const columns = useMemo<TableColumnsType<ScheduleGridRow>>(() => {
    if (!data) return [];
    return [
      {
        key: 'name',
        title: '姓名',
        dataIndex: 'name',
        fixed: 'left',
        width: 90,
        render: (v: string, r) => <Tooltip title={r.schedules || '未排班'}>{v}</Tooltip>,
      },
      ...data.days.map((d, i) => ({
        key: d.date,
        title: (
          <span className={d.weekday >= 5 ? 'roster-weekend' : undefined}>
            {d.day}
            <br />
            {d.weekday_ch}
          </span>
        ),
        width: 46,
        align: 'center' as const,
        render: (_: unknown, r: ScheduleGridRow) => {
          const c = r.cells[i]!;
          return (
            <Tooltip title={c.times || undefined}>
              <span className={`roster-cell roster-${c.state}`} data-testid={`grid-${r.account_id}-${d.date}`}>
                {c.text || '—'}
              </span>
            </Tooltip>
          );
        },
      })),
      { key: 'work', title: '上班', dataIndex: 'work_days', width: 56, align: 'center' },
      { key: 'rest', title: '休息', dataIndex: 'rest_days', width: 56, align: 'center' },
    ];
  }, [data]);
  const set = (patch: Partial<GridFilters>) => setFilters((f) => ({ ...f, ...patch }));
  return (
    <>
      <Space wrap className="roster-filters">
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${filters.month}-01`)}
          onChange={(v: Dayjs | null) => v && set({ month: v.format('YYYY-MM') })}
          data-testid="grid-month"
        />
        <Select
          allowClear
          placeholder="排班"
          style={{ width: 160 }}
          value={filters.schedule_id}
          onChange={(v?: number) => set({ schedule_id: v })}
          options={(schedules.data?.items ?? []).map((s: ScheduleItem) => ({ value: s.id, label: s.name }))}
          data-testid="grid-schedule"
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="人员"
          style={{ width: 140 }}
          value={filters.account_id}
          onChange={(v?: number) => set({ account_id: v })}
          options={(staff.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))}
          data-testid="grid-staff"
        />
        <DepartmentSelect
          placeholder="部门"
          style={{ width: 160 }}
          value={filters.dept_id}
          onChange={(v) => set({ dept_id: v ?? undefined })}
        />
        <Button icon={<DownloadOutlined />} onClick={() => void runExport('scheduleexport', filters)} data-testid="grid-export">
          导出
        </Button>
        <Button icon={<PrinterOutlined />} disabled={!data?.items.length} onClick={() => data && printGrid(data, `排班表 ${data.month}`)}>
          打印
        </Button>
      </Space>
      {data && data.shifts.length > 0 && (
        <div className="roster-legend">
          {data.shifts.map((s) => (
            <Tag key={s.id} color="blue">
              {s.name} {s.times}
            </Tag>
          ))}
          <Tag>休 休息</Tag>
        </div>
      )}
      <Table<ScheduleGridRow>
        rowKey="account_id"
        size="small"
        bordered
        loading={grid.isFetching}
        columns={columns}
        dataSource={data?.items ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description="本月没有排班人员，可在“排班”中新增排班" /> }}
        data-testid="schedule-grid"
      />
      <Typography.Text type="secondary" className="roster-note">
        “—”表示该日尚无生效的排班；一人有多个排班时，按生效日期最近的排班为准。
      </Typography.Text>
    </>
  );
}

/** /setup/schedulelist (排班管理): the month grid, the rosters and the shifts. */
export default function ScheduleList() {
  const [tab, setTab] = useState('grid');
  return (
    <Card variant="borderless" className="roster-page" styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'grid', label: '排班表', children: <MonthGrid /> },
          {
            key: 'schedule',
            label: '排班',
            children: (
              <ResourcePage<ScheduleItem>
                resource={schedule}
                title="排班"
                idColumn={false}
                listOptions={{ syncUrl: false }}
                columns={{ staff_names: { ellipsis: true, width: 220 } }}
              />
            ),
          },
          {
            key: 'shift',
            label: '班次',
            children: <ResourcePage resource={shift} title="班次" idColumn={false} listOptions={{ syncUrl: false }} />,
          },
        ]}
      />
    </Card>
  );
}
