import { useMemo, useState } from 'react';
import { Button, DatePicker, Select, Space, Table, Tag } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router';
import type { RegionDelayLogItem, RegionDelayMonth } from '@wuye/contract';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { call } from '../../api/client';
import { runExport } from '../../api/exportJob';
import { saveFile } from '../../utils/files';
import { useList } from '../../api/useList';
import { useUser } from '../../stores/user';
import { useSystem } from '../../stores/system';
import { PageCard } from './shared';
import { rangePickerPresets, usePagination } from '../../components/resource';
import { moneyColumn } from '../../components/Money';

const KIND_COLORS = { pay: 'success', code: 'processing', manual: 'warning' } as const;

/**
 * regiondelaylog: renewals and manual extensions, newest first, filtered by when they were made; the group side
 * (/leader/regions/regiondelaylog) also by community, the community side (/setup/regiondelaylog) sees its own.
 */
export default function RegionDelayLog() {
  const [params] = useSearchParams();
  const isGroup = useUser((s) => s.side) === 'group';
  const initialRid = Number(params.get('rid')) || undefined;
  const list = useList('regiondelaylog', { rid: initialRid, sort: 'desc' });
  const paging = usePagination(list);
  const regions = useList('leaderregionlist', { title: '' }, { limit: 200, enabled: isGroup });
  const [rid, setRid] = useState<number | undefined>(initialRid);
  const [range, setRange] = useState<[string, string]>();
  const zone = useSystem((s) => s.info?.time_zone) || undefined;
  const presets = useMemo(() => rangePickerPresets(zone), [zone]);
  const [exporting, setExporting] = useState(false);
  const exportLog = async () => {
    setExporting(true);
    try {
      if (isGroup) saveFile(await call('leaderregiondelaylogexport', { rid, create_time: range, sort: 'desc' }));
      else await runExport('regiondelaylogexport', { create_time: range, sort: 'desc' });
    } catch {
      /* shown by the client */
    } finally {
      setExporting(false);
    }
  };
  return (
    <PageCard title="续费记录">
      <Space style={{ marginBottom: 16 }} wrap>
        <DatePicker.RangePicker
          presets={presets}
          inputReadOnly
          allowClear
          placeholder={['续费开始日期', '续费结束日期']}
          data-testid="delaylog-range"
          onChange={(v: [Dayjs | null, Dayjs | null] | null) => {
            const next: [string, string] | undefined = v?.[0] && v[1] ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : undefined;
            setRange(next);
            list.setFilters({ rid, create_time: next, sort: 'desc' });
          }}
        />
        {isGroup && (
          <Select
            placeholder="全部小区"
            allowClear
            style={{ width: 200 }}
            value={rid}
            options={regions.items.map((r) => ({ value: r.id, label: r.title }))}
            onChange={(v?: number) => {
              setRid(v);
              list.setFilters({ rid: v, create_time: range, sort: 'desc' });
            }}
          />
        )}
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportLog()} data-testid="delaylog-export">
          导出
        </Button>
      </Space>
      {isGroup && <DelayMonthly />}
      <Table<RegionDelayLogItem>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={paging}
        data-testid="delaylog-table"
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          ...(isGroup ? [{ title: '小区', dataIndex: 'region_title' }] : []),
          { title: '方式', dataIndex: 'kind_ch', width: 110, render: (t: string, r) => <Tag color={KIND_COLORS[r.kind]}>{t}</Tag> },
          { title: '原到期日', dataIndex: 'old_end', width: 110 },
          { title: '新到期日', dataIndex: 'new_end', width: 110 },
          { title: '延长天数', dataIndex: 'days', width: 90 },
          moneyColumn('金额', 'amount', { width: 110, empty: '-' }),
          { title: '单号/备注', dataIndex: 'ref', ellipsis: true },
          { title: '操作人', dataIndex: 'operator', width: 100 },
          { title: '时间', dataIndex: 'create_time', width: 170 },
        ]}
      />
    </PageCard>
  );
}

/** The group's renewals of a year summed per month, with the year's totals (regiondelaymonthly). */
function DelayMonthly() {
  const [year, setYear] = useState(() => dayjs().year());
  const q = useQuery({ queryKey: ['regiondelaymonthly', year], queryFn: () => call('regiondelaymonthly', { year }) });
  const rows: Array<RegionDelayMonth & { key: string }> = q.data
    ? [
        // the months with renewals, then the year's totals: a short table above the log
        ...q.data.items.filter((m) => m.count > 0).map((m) => ({ ...m, key: m.month })),
        { ...q.data.totals, month: '全年合计', key: 'total' },
      ]
    : [];
  return (
    <div style={{ marginBottom: 16 }} data-testid="delaylog-monthly">
      <Space style={{ marginBottom: 8 }}>
        <span>月度汇总</span>
        <DatePicker
          picker="year"
          allowClear={false}
          inputReadOnly
          value={dayjs(`${year}-01-01`)}
          onChange={(v: Dayjs | null) => v && setYear(v.year())}
        />
      </Space>
      <Table<RegionDelayMonth & { key: string }>
        rowKey="key"
        size="small"
        loading={q.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 600 }}
        columns={[
          { title: '月份', dataIndex: 'month', width: 110, render: (m: string, r) => (r.key === 'total' ? <b>{m}</b> : m) },
          { title: '续费次数', dataIndex: 'count', width: 100 },
          { title: '续费小区数', dataIndex: 'communities', width: 110 },
          { title: '延长天数', dataIndex: 'days', width: 100 },
          moneyColumn('金额', 'amount', { width: 120 }),
        ]}
      />
    </div>
  );
}
