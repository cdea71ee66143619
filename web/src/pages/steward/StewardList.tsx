import { useState } from 'react';
import { Button, Card, Drawer, Input, List, Space, Tabs, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { scoreItem, steward, type ScoreItemRow, type StewardRow } from '@wuye/contract/steward/profiles';
import { call } from '../../api/client';
import { ResourcePage } from '../../components/resource';
import './steward.css';

/** The households a profile serves: address and owner, searchable, 10 a page. */
function HousesDrawer({ row, onClose }: { row: StewardRow | null; onClose: () => void }) {
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['stewardhouses', row?.id, keyword, page],
    queryFn: () => call('stewardhouses', { id: row!.id, keyword, page, limit: 10 }),
    enabled: !!row,
  });
  return (
    <Drawer
      open={!!row}
      onClose={onClose}
      title={row ? `${row.name}服务的住户` : ''}
      width={480}
      destroyOnHidden
      data-testid="steward-houses"
      afterOpenChange={(open) => {
        if (!open) {
          setKeyword('');
          setPage(1);
        }
      }}
    >
      <Typography.Paragraph type="secondary">{row?.areas_text}</Typography.Paragraph>
      <Input.Search
        placeholder="地址或业主姓名"
        allowClear
        onSearch={(v) => {
          setKeyword(v.trim());
          setPage(1);
        }}
        style={{ marginBottom: 12 }}
        data-testid="steward-houses-search"
      />
      <List
        loading={q.isFetching}
        dataSource={q.data?.items ?? []}
        rowKey="hid"
        renderItem={(h) => (
          <List.Item>
            <List.Item.Meta title={h.address} description={h.owner_name || '无在住业主'} />
          </List.Item>
        )}
        pagination={{
          current: page,
          pageSize: 10,
          total: q.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (t) => `共 ${t} 户`,
          size: 'small',
        }}
      />
    </Drawer>
  );
}

/**
 * /steward/stewardlist (管家档案; docs/product.md#steward-profiles): the profiles (photo, name,
 * post, buildings served, households, phone, items and weights, status; 服务住户, 查看评分), and the
 * community's assessment items on their own tab. Adding and editing open /steward/steadd and
 * /steward/steedit.
 */
export default function StewardList() {
  const [tab, setTab] = useState('profiles');
  const [houses, setHouses] = useState<StewardRow | null>(null);
  const navigate = useNavigate();
  return (
    <Card variant="borderless" styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          {
            key: 'profiles',
            label: '管家档案',
            children: (
              <>
                <ResourcePage<StewardRow>
                  resource={steward}
                  title="管家档案"
                  idColumn={false}
                  listOptions={{ syncUrl: false }}
                  columns={{
                    name: {
                      render: (v: string, r) => (
                        <Space>
                          {r.photo ? (
                            <img className="steward-avatar" src={r.photo} alt="" />
                          ) : (
                            <span className="steward-avatar steward-avatar-empty">
                              <UserOutlined />
                            </span>
                          )}
                          {v}
                        </Space>
                      ),
                      width: 140,
                    },
                    areas_text: { ellipsis: true, width: 180 },
                    items_text: { ellipsis: true, width: 240 },
                  }}
                  rowActions={(r) => (
                    <>
                      <Button type="link" size="small" onClick={() => setHouses(r)} data-testid={`steward-houses-${r.id}`}>
                        服务住户
                      </Button>
                      <Button
                        type="link"
                        size="small"
                        onClick={() => void navigate(`/steward/scorelist?profile=${r.id}`)}
                        data-testid={`steward-scores-${r.id}`}
                      >
                        查看评分
                      </Button>
                    </>
                  )}
                />
                <HousesDrawer row={houses} onClose={() => setHouses(null)} />
              </>
            ),
          },
          {
            key: 'items',
            label: '考核项目',
            children: (
              <ResourcePage<ScoreItemRow> resource={scoreItem} title="考核项目" idColumn={false} listOptions={{ syncUrl: false }} />
            ),
          },
        ]}
      />
    </Card>
  );
}
