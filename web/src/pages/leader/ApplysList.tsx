import { useState } from 'react';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { ApplysItem } from '@wuye/contract/leader/applys';
import { call } from '../../api/client';
import { MenuIcon } from '../mobilesys/widgets';
import { ApplysEditModal } from './ApplysEdit';

const scopeColor = { all: 'success', some: 'processing', none: 'default' } as const;

/**
 * 应用目录 (/applys/applyslist on the group side; issue 45): the owner app's services as the group
 * offers them to its communities: icon, the module each needs, the group's order, the communities it
 * is open to, whether communities may switch it off or reorder it; 详情 shows each community.
 */
export default function ApplysList() {
  const navigate = useNavigate();
  const [editing, setEditing] = useState<ApplysItem | null>(null);
  const list = useQuery({ queryKey: ['applyslist'], queryFn: () => call('applyslist', {}) });
  const columns: TableColumnsType<ApplysItem> = [
    {
      title: '应用',
      dataIndex: 'title',
      fixed: 'left',
      width: 130,
      render: (_: string, r) => (
        <Space>
          <MenuIcon name={r.icon} />
          {r.title}
        </Space>
      ),
    },
    { title: '所需模块', dataIndex: 'module_ch', width: 110 },
    { title: '集团排序', dataIndex: 'sort', width: 80 },
    {
      title: '开放范围',
      dataIndex: 'region_scope',
      width: 200,
      render: (_: string, r) => (
        <Space size={4} wrap>
          <Tag color={scopeColor[r.region_scope]}>{r.region_scope_ch}</Tag>
          {r.region_scope === 'some' && <Typography.Text type="secondary">{r.regions_text}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: '小区停用',
      dataIndex: 'allow_hide_ch',
      width: 80,
      render: (t: string, r) => <Tag color={r.allow_hide === 'Y' ? 'success' : 'warning'}>{t}</Tag>,
    },
    {
      title: '小区排序',
      dataIndex: 'allow_reorder_ch',
      width: 80,
      render: (t: string, r) => <Tag color={r.allow_reorder === 'Y' ? 'success' : 'warning'}>{t}</Tag>,
    },
    {
      title: '可用 / 展示 / 小区数',
      key: 'counts',
      width: 140,
      render: (_: unknown, r) => `${r.available_count} / ${r.shown_count} / ${r.region_count}`,
    },
    {
      title: '操作',
      key: 'op',
      width: 120,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => setEditing(r)} data-testid={`applys-edit-${r.code}`}>
            设置
          </Button>
          <Button
            size="small"
            type="link"
            onClick={() => void navigate(`/applys/applysinfo?code=${r.code}`)}
            data-testid={`applys-info-${r.code}`}
          >
            详情
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Card title="应用目录" data-testid="applys-page">
      <Typography.Paragraph type="secondary">
        业主App的应用由集团统一开放：未开放、或小区未开通所需模块的，小区不能开通；不允许停用的，开放的小区必须展示；不允许调整排序的，按集团排序。
      </Typography.Paragraph>
      <Table<ApplysItem>
        rowKey="code"
        size="middle"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <ApplysEditModal item={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
