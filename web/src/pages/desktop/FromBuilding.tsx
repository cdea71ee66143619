import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Descriptions, Drawer, Empty, Grid, Select, Space, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { RoomBoardItem } from '@wuye/contract';
import { formatMoney } from '../../utils/formatMoney';
import { ROOM_STATE, ROOM_STATES } from '@wuye/contract/structure';
import { call } from '../../api/client';
import { enumFill, useSmallList } from '../../components/resource';
import OwnerDrawer from '../owners/OwnerDrawer';
import type { HouseRef } from '../owners/shared';
import './desktop.css';

const yuan = (v: string) => formatMoney(v, { unit: '¥' });
const owes = (r: RoomBoardItem) => r.arrears.bill_count > 0;

/**
 * 从楼栋选房 (/desktop/frombuilding?bid=): pick a building, see its rooms as a board — a column per
 * unit, a row per floor (top floor first), each room a tile in its state's colour, marked with what
 * it owes — and open a room's panel: its owners, its bills, 去收银, 查看账单, 业主信息.
 */
export default function FromBuilding() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const screens = Grid.useBreakpoint();
  const buildings = useSmallList('building_small_list', {}).options;
  const bid = Number(params.get('bid')) || (buildings[0] ? Number(buildings[0].value) : undefined);
  const board = useQuery({
    queryKey: ['roomboard', bid],
    queryFn: () => call('roomboard', { bid: bid! }),
    enabled: !!bid,
  });
  const rooms = useMemo(() => board.data?.items ?? [], [board.data]);
  const [open, setOpen] = useState<RoomBoardItem | null>(null);
  const [owner, setOwner] = useState<HouseRef | null>(null);
  useEffect(() => setOpen(null), [bid]);

  const units = useMemo(() => {
    const byUnit = new Map<number, { title: string; floors: Map<number, RoomBoardItem[]> }>();
    for (const r of rooms) {
      const unit = byUnit.get(r.tid) ?? { title: r.unit_title, floors: new Map<number, RoomBoardItem[]>() };
      unit.floors.set(r.floor, [...(unit.floors.get(r.floor) ?? []), r]);
      byUnit.set(r.tid, unit);
    }
    return [...byUnit.entries()];
  }, [rooms]);
  const counts = useMemo(() => ROOM_STATES.map((s) => [s, rooms.filter((r) => r.state === s).length] as const), [rooms]);
  const owing = rooms.filter(owes);
  const where = (r: RoomBoardItem) => `bid=${r.bid}&tid=${r.tid}&hid=${r.id}`;

  return (
    <Card
      size="small"
      title="从楼栋选房"
      data-testid="frombuilding"
      extra={
        <Select
          style={{ width: 160 }}
          options={buildings}
          value={bid}
          onChange={(v) => setParams({ bid: String(v) }, { replace: true })}
          placeholder="选择楼栋"
          data-testid="frombuilding-bid"
        />
      }
    >
      <Space style={{ marginBottom: 12 }} wrap data-testid="frombuilding-legend">
        {counts.map(([s, n]) => (
          <Tag key={s} color={enumFill(ROOM_STATE, s)} style={{ color: '#333' }}>
            {ROOM_STATE[s].text} {n}
          </Tag>
        ))}
        <Tag color="error">欠费 {owing.length} 户</Tag>
        <span>共 {rooms.length} 套</span>
      </Space>
      <Spin spinning={board.isFetching}>
        {rooms.length === 0 && !board.isFetching && <Empty description="该楼栋暂无房屋" />}
        <div className="room-board" data-testid="room-board">
          {units.map(([tid, unit]) => (
            <Card key={tid} size="small" title={unit.title} className="room-board-unit">
              {[...unit.floors.entries()].map(([floor, list]) => (
                <div key={floor} className="room-board-floor">
                  <span className="room-board-floor-no">{floor}F</span>
                  {list.map((r) => (
                    <button
                      type="button"
                      key={r.id}
                      className={`room-tile${owes(r) ? ' room-tile-owing' : ''}${open?.id === r.id ? ' room-tile-open' : ''}`}
                      style={{ background: enumFill(ROOM_STATE, r.state) }}
                      title={`${r.address} · ${ROOM_STATE[r.state].text}${owes(r) ? ` · 欠费 ${yuan(r.arrears.total)}` : ''}`}
                      onClick={() => setOpen(r)}
                      data-testid={`room-tile-${r.id}`}
                      data-owing={owes(r) ? r.arrears.total : undefined}
                    >
                      <span className="room-tile-title">{r.title}</span>
                      <span className="room-tile-state">{ROOM_STATE[r.state].text}</span>
                      {owes(r) && <span className="room-tile-owed">{yuan(r.arrears.total)}</span>}
                    </button>
                  ))}
                </div>
              ))}
            </Card>
          ))}
        </div>
      </Spin>
      <Drawer
        open={!!open}
        onClose={() => setOpen(null)}
        title={open?.address}
        width={screens.sm ? 420 : '100%'}
        data-testid="room-panel"
        destroyOnHidden
      >
        {open && (
          <>
            <Descriptions
              column={1}
              size="small"
              bordered
              items={[
                {
                  key: 'state',
                  label: '状态',
                  children: (
                    <Tag color={enumFill(ROOM_STATE, open.state)} style={{ color: '#333' }}>
                      {ROOM_STATE[open.state].text}
                    </Tag>
                  ),
                },
                { key: 'area', label: '建筑面积', children: `${open.built_area} ㎡` },
                {
                  key: 'owners',
                  label: '业主',
                  children: (
                    <span data-testid="room-panel-owners">
                      {open.owners.length === 0 ? '暂无业主' : open.owners.map((o) => `${o.name} ${o.mobile}`).join('；')}
                    </span>
                  ),
                },
                {
                  key: 'bills',
                  label: '未缴账单',
                  children: (
                    <span data-testid="room-panel-bills">
                      {owes(open)
                        ? `${open.arrears.bill_count} 笔，欠费 ${yuan(open.arrears.fee)}，滞纳金 ${yuan(open.arrears.late_fee)}，合计 ${yuan(open.arrears.total)}`
                        : '无欠费'}
                    </span>
                  ),
                },
              ]}
            />
            <Space wrap style={{ marginTop: 16 }}>
              <Button type="primary" onClick={() => void navigate(`/desktop/cashier?${where(open)}`)} data-testid="room-panel-cashier">
                去收银
              </Button>
              <Button onClick={() => void navigate(`/fees/feebilllist?${where(open)}`)} data-testid="room-panel-bills-link">
                查看账单
              </Button>
              <Button
                disabled={open.owners.length === 0}
                onClick={() => setOwner({ rid: 0, bid: open.bid, tid: open.tid, hid: open.id })}
                data-testid="room-panel-owner"
              >
                业主信息
              </Button>
            </Space>
          </>
        )}
      </Drawer>
      <OwnerDrawer house={owner} onClose={() => setOwner(null)} />
    </Card>
  );
}
