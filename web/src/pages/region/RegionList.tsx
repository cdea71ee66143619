import { useState } from 'react';
import { Button, Card, Empty, Spin, Tag } from 'antd';
import './region.css';
import { useQuery } from '@tanstack/react-query';
import type { RegionChoice } from '@wuye/contract/region';
import { call } from '../../api/client';
import { useSystem } from '../../stores/system';
import { useTags } from '../../stores/tags';

/** Enters another community: the same token moves to it, then user and system info reload. */
async function switchTo(rid: number): Promise<void> {
  await call('regionswitch', { rid });
  useSystem.getState().setInfo(null);
  useTags.getState().delAllViews();
  window.location.assign('/dashboard');
}

/** Pick or switch community (/regionlist and /desktop/regionlist). */
export default function RegionList() {
  const [switching, setSwitching] = useState<number | null>(null);
  const { data, isFetching } = useQuery({
    queryKey: ['regionlist'],
    queryFn: async () => (await call('regionlist')).items,
    staleTime: 0,
  });
  const items = data ?? [];
  const choose = (r: RegionChoice) => {
    setSwitching(r.rid);
    switchTo(r.rid).catch(() => setSwitching(null));
  };
  return (
    <Card title="切换小区" data-testid="regionlist-page">
      <Spin spinning={isFetching && !data}>
        {items.length === 0 && !isFetching ? (
          <Empty />
        ) : (
          <div className="region-list">
            {items.map((r) => (
              <div key={r.rid} className="region-item" data-testid={`region-${r.rid}`}>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <div style={{ fontWeight: 600, marginBottom: 4 }}>{r.title}</div>
                  <div style={{ color: '#909399', fontSize: 13 }}>
                    {r.address}
                    <span style={{ marginLeft: 12, whiteSpace: 'nowrap' }}>
                      到期 {r.end_time?.slice(0, 10)}
                      {r.days_left < 0 ? (
                        <Tag color="error" style={{ marginLeft: 6 }}>
                          已到期
                        </Tag>
                      ) : r.days_left < 30 ? (
                        <Tag color="warning" style={{ marginLeft: 6 }}>
                          剩余 {r.days_left} 天
                        </Tag>
                      ) : null}
                    </span>
                  </div>
                </div>
                {r.current ? (
                  <Tag color="blue">当前小区</Tag>
                ) : (
                  <Button
                    type="primary"
                    size="small"
                    loading={switching === r.rid}
                    onClick={() => choose(r)}
                    data-testid={`region-enter-${r.rid}`}
                  >
                    进入
                  </Button>
                )}
              </div>
            ))}
          </div>
        )}
      </Spin>
    </Card>
  );
}
