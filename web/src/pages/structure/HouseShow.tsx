import { useEffect, useMemo, useState } from 'react';
import { Card, Empty, Select, Space, Spin, Tag, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import type { RoomMapItem } from '@wuye/contract';
import { ROOM_STATE, ROOM_STATES } from '@wuye/contract/structure';
import { call } from '../../api/client';
import { PageCard } from './shared';
import { enumFill, useSmallList } from '../../components/resource';

/** house_show: the room-state board (房态图) of one building, a column per unit, a row per floor. */
export default function HouseShow() {
  const buildings = useSmallList('building_small_list', {}).options;
  const [bid, setBid] = useState<number | undefined>();
  const [rooms, setRooms] = useState<RoomMapItem[]>([]);
  const [loading, setLoading] = useState(false);
  const navigate = useNavigate();

  useEffect(() => {
    if (bid === undefined && buildings[0]) setBid(Number(buildings[0].value));
  }, [bid, buildings]);
  useEffect(() => {
    if (!bid) return;
    setLoading(true);
    call('roommap', { bid })
      .then((d) => setRooms(d.items))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [bid]);

  const units = useMemo(() => {
    const byUnit = new Map<number, { title: string; floors: Map<number, RoomMapItem[]> }>();
    for (const r of rooms) {
      const unit = byUnit.get(r.tid) ?? { title: r.unit_title, floors: new Map<number, RoomMapItem[]>() };
      unit.floors.set(r.floor, [...(unit.floors.get(r.floor) ?? []), r]);
      byUnit.set(r.tid, unit);
    }
    return [...byUnit.entries()];
  }, [rooms]);
  const counts = useMemo(() => ROOM_STATES.map((s) => [s, rooms.filter((r) => r.state === s).length] as const), [rooms]);

  return (
    <PageCard
      title="房态图"
      extra={
        <Select
          style={{ width: 160 }}
          options={buildings}
          value={bid}
          onChange={setBid}
          placeholder="选择楼栋"
          data-testid="houseshow-bid"
        />
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        {counts.map(([s, n]) => (
          <Tag key={s} color={enumFill(ROOM_STATE, s)} style={{ color: '#333' }}>
            {ROOM_STATE[s].text} {n}
          </Tag>
        ))}
        <span>共 {rooms.length} 套</span>
      </Space>
      <Spin spinning={loading}>
        {units.length === 0 && !loading && <Empty description="该楼栋暂无房屋" />}
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 24 }} data-testid="houseshow-board">
          {units.map(([tid, unit]) => (
            // a unit wider than a phone scrolls inside its card, not the page
            <Card key={tid} size="small" title={unit.title} style={{ maxWidth: '100%' }} styles={{ body: { overflowX: 'auto' } }}>
              {[...unit.floors.entries()].map(([floor, list]) => (
                <div key={floor} style={{ display: 'flex', alignItems: 'center', gap: 4, marginBottom: 4 }}>
                  <span style={{ width: 36, color: '#999', fontSize: 12 }}>{floor}F</span>
                  {list.map((r) => (
                    <Tooltip key={r.id} title={`${r.title} · ${r.category_title || '未分类'} · ${r.built_area}㎡ · ${r.state_ch}`}>
                      <div
                        onClick={() => void navigate(`/roominfo?id=${r.id}`)}
                        style={{
                          width: 56,
                          padding: '4px 0',
                          textAlign: 'center',
                          cursor: 'pointer',
                          borderRadius: 4,
                          fontSize: 12,
                          background: enumFill(ROOM_STATE, r.state),
                        }}
                      >
                        {r.title}
                      </div>
                    </Tooltip>
                  ))}
                </div>
              ))}
            </Card>
          ))}
        </div>
      </Spin>
    </PageCard>
  );
}
