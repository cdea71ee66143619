import { useState } from 'react';
import { Select, Space, Table, Tag } from 'antd';
import { useSearchParams } from 'react-router';
import type { RegionDelayLogItem } from '@wuye/contract';
import { useList } from '../../api/useList';
import { useUser } from '../../stores/user';
import { PageCard } from './shared';
import { usePagination } from '../../components/resource';

const KIND_COLORS = { pay: 'success', code: 'processing', manual: 'warning' } as const;

/** regiondelaylog: renewals and manual extensions; the group side filters by community. */
export default function RegionDelayLog() {
  const [params] = useSearchParams();
  const isGroup = useUser((s) => s.side) === 'group';
  const initialRid = Number(params.get('rid')) || undefined;
  const list = useList('regiondelaylog', { rid: initialRid, sort: 'desc' });
  const paging = usePagination(list);
  const regions = useList('leaderregionlist', { title: '' }, { limit: 200, enabled: isGroup });
  const [rid, setRid] = useState<number | undefined>(initialRid);
  return (
    <PageCard title="续费记录">
      {isGroup && (
        <Space style={{ marginBottom: 16 }}>
          <Select
            placeholder="全部小区"
            allowClear
            style={{ width: 200 }}
            value={rid}
            options={regions.items.map((r) => ({ value: r.id, label: r.title }))}
            onChange={(v?: number) => {
              setRid(v);
              list.setFilters({ rid: v, sort: 'desc' });
            }}
          />
        </Space>
      )}
      <Table<RegionDelayLogItem>
        rowKey="id"
        loading={list.loading}
        dataSource={list.items}
        pagination={paging}
        data-testid="delaylog-table"
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          { title: '小区', dataIndex: 'region_title' },
          { title: '方式', dataIndex: 'kind_ch', width: 110, render: (t: string, r) => <Tag color={KIND_COLORS[r.kind]}>{t}</Tag> },
          { title: '原到期日', dataIndex: 'old_end', width: 110 },
          { title: '新到期日', dataIndex: 'new_end', width: 110 },
          { title: '金额(元)', dataIndex: 'amount', width: 100 },
          { title: '单号/备注', dataIndex: 'ref', ellipsis: true },
          { title: '操作人', dataIndex: 'operator', width: 100 },
          { title: '时间', dataIndex: 'create_time', width: 170 },
        ]}
      />
    </PageCard>
  );
}
