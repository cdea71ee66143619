import { useState } from 'react';
import { Button, Card, Descriptions, Empty, Space, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { APP_SERVICE_CODES, type AppServiceCode } from '@wuye/contract/mobilesys/apply';
import type { ApplysRegion } from '@wuye/contract/leader/applys';
import { call } from '../../api/client';
import { MenuIcon } from '../mobilesys/widgets';
import { ApplysEditModal } from './ApplysEdit';

/**
 * 应用详情 (/applys/applysinfo?code= on the group side; issue 45): one service of the group's
 * catalogue and, per community of the group, whether it may be offered there, why not (集团未开放 /
 * 本小区未开通“X”模块 / 本小区已停用) and whether the owners see it.
 */
export default function ApplysInfo() {
  const [params] = useSearchParams();
  const raw = params.get('code') ?? '';
  const code = (APP_SERVICE_CODES as readonly string[]).includes(raw) ? (raw as AppServiceCode) : null;
  const [editing, setEditing] = useState(false);
  const info = useQuery({ queryKey: ['applysinfo', code], queryFn: () => call('applysinfo', { code: code! }), enabled: !!code });
  if (!code) return <Empty description="应用不存在" />;
  const d = info.data;
  const columns: TableColumnsType<ApplysRegion> = [
    { title: '小区', dataIndex: 'title', width: 140 },
    {
      title: '可用',
      dataIndex: 'available',
      width: 80,
      render: (v: string) => <Tag color={v === 'Y' ? 'success' : 'default'}>{v === 'Y' ? '可用' : '不可用'}</Tag>,
    },
    { title: '原因', dataIndex: 'reason', width: 200, render: (v: string) => v || '-' },
    {
      title: '业主端展示',
      dataIndex: 'enabled_ch',
      width: 100,
      render: (t: string, r) => <Tag color={r.enabled === 'Y' ? 'success' : 'default'}>{r.enabled === 'Y' ? '展示' : t}</Tag>,
    },
  ];
  return (
    <Card
      title={d ? `应用详情：${d.title}` : '应用详情'}
      loading={info.isLoading}
      extra={
        d && (
          <Button onClick={() => setEditing(true)} data-testid="applysinfo-edit">
            设置
          </Button>
        )
      }
      data-testid="applysinfo-page"
    >
      {d && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} bordered>
            <Descriptions.Item label="图标">
              <Space>
                <MenuIcon name={d.icon} /> {d.icon_ch}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="所需模块">{d.module_ch}</Descriptions.Item>
            <Descriptions.Item label="集团排序">{d.sort}</Descriptions.Item>
            <Descriptions.Item label="开放范围">
              {d.region_scope === 'some' ? `${d.region_scope_ch}：${d.regions_text}` : d.region_scope_ch}
            </Descriptions.Item>
            <Descriptions.Item label="允许小区停用">{d.allow_hide_ch}</Descriptions.Item>
            <Descriptions.Item label="允许小区调整排序">{d.allow_reorder_ch}</Descriptions.Item>
            <Descriptions.Item label="简介">{d.intro}</Descriptions.Item>
            <Descriptions.Item label="最近修改">
              {d.update_time ? `${d.updated_by} ${d.update_time}` : '未修改（默认设置）'}
            </Descriptions.Item>
          </Descriptions>
          <Table<ApplysRegion>
            rowKey="rid"
            size="small"
            dataSource={d.regions}
            columns={columns}
            pagination={false}
            scroll={{ x: 'max-content' }}
            data-testid="applysinfo-regions"
          />
        </Space>
      )}
      <ApplysEditModal item={editing && d ? d : null} onClose={() => setEditing(false)} />
    </Card>
  );
}
