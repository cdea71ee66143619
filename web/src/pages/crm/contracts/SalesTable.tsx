import { useEffect, useMemo, useState } from 'react';
import { Card, Empty, Select, Space, Spin, Statistic, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { enumKeys, enumText } from '@wuye/contract/kit/resource';
import { UNIT_STATE, type SalesTableCell, type UnitState } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import { call } from '../../../api/client';
import { formatMoney, MoneyStatistic } from '../../../components/Money';
import { useSmallList, useRoles } from '../../../components/resource';
import './contracts.css';

/** Each state's fill and border (the legend and the cells). */
const LOOK: Record<UnitState, { background: string; border: string }> = {
  available: { background: '#f6ffed', border: '#b7eb8f' },
  reserved: { background: '#fff7e6', border: '#ffd591' },
  subscribed: { background: '#e6f4ff', border: '#91caff' },
  signed: { background: '#fff1f0', border: '#ffa39e' },
  rented: { background: '#f5f5f5', border: '#d9d9d9' },
};

/** 万 with two decimals for a cell (1,234,567.00 → 123.46万). */
const wan = (v: string) => (v ? `${(Number(v) / 10000).toFixed(2)}万` : '');

/**
 * /salestable (销控表; docs/product.md#crm-contracts): a building's rooms as a grid per unit, floors
 * from the top, each cell coloured by its state with its price (the contract's, else the list
 * price); a cell opens its contract, or starts one for a room still for sale.
 */
export default function SalesTable() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const can = useRoles();
  const buildings = useSmallList('building_small_list', {}).items;
  const bid = Number(params.get('bid')) || buildings[0]?.id || 0;
  const table = useQuery({ queryKey: ['salestable', bid], queryFn: () => call('salestable', { bid }), enabled: bid > 0, retry: false });
  const [focus, setFocus] = useState<UnitState | ''>('');
  useEffect(() => setFocus(''), [bid]);
  const d = table.data;
  const byUnit = useMemo(() => {
    const out = new Map<number, SalesTableCell[]>();
    for (const c of d?.cells ?? []) out.set(c.tid, [...(out.get(c.tid) ?? []), c]);
    return out;
  }, [d]);
  const open = (c: SalesTableCell) => {
    if (c.contract_id) void navigate(`/crm/roomshow?id=${c.contract_id}`);
    else if (can([...CRM_ROLES.contracts]))
      void navigate('/crm/addroomsales', {
        state: {
          unit: {
            key: `room-${c.hid}`,
            unit_kind: 'room',
            unit_id: c.hid,
            title: `${d?.building.title ?? ''}${d?.units.find((u) => u.id === c.tid)?.title ?? ''}${c.title}`,
            area: c.area,
            list_price: c.price_kind === 'list' ? c.price : '',
          },
        },
      });
  };
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="salestable-page">
      <Card size="small">
        <Space wrap size="large" align="center">
          <Select
            value={bid || undefined}
            style={{ width: 140 }}
            options={buildings.map((b) => ({ value: b.id, label: b.title }))}
            onChange={(v: number) => setParams({ bid: String(v) }, { replace: true })}
            placeholder="选择楼栋"
            data-testid="salestable-building"
          />
          {enumKeys(UNIT_STATE).map((k) => (
            <Typography.Link
              key={k}
              onClick={() => setFocus(focus === k ? '' : k)}
              style={{ color: 'inherit', opacity: focus && focus !== k ? 0.45 : 1 }}
              data-testid={`salestable-legend-${k}`}
            >
              <span className="sales-legend" style={{ background: LOOK[k].background, border: `1px solid ${LOOK[k].border}` }} />
              {enumText(UNIT_STATE, k)} {d?.counts[k] ?? 0}
            </Typography.Link>
          ))}
        </Space>
      </Card>
      <Spin spinning={table.isFetching}>
        {!d ? (
          <Empty description={bid ? '' : '请选择楼栋'} />
        ) : (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Space wrap size="large">
              <Statistic title="房源" value={d.cells.length} suffix="套" />
              <Statistic title="已签约" value={d.counts.signed} suffix="套" />
              <Statistic title="可售" value={d.counts.available} suffix="套" />
              <MoneyStatistic title="签约与认购金额" value={d.signed_amount} />
            </Space>
            <div className="sales-units">
              {d.units.map((u) => {
                const cells = byUnit.get(u.id) ?? [];
                const perFloor = Math.max(1, ...d.floors.map((f) => cells.filter((c) => c.floor === f).length));
                return (
                  <Card
                    key={u.id}
                    size="small"
                    title={`${d.building.title} ${u.title}`}
                    className="sales-unit"
                    data-testid={`salestable-unit-${u.id}`}
                  >
                    <div style={{ overflowX: 'auto' }}>
                      <div className="sales-grid" style={{ gridTemplateColumns: `32px repeat(${perFloor}, minmax(68px, 1fr))` }}>
                        {d.floors.map((f) => {
                          const row = cells.filter((c) => c.floor === f);
                          if (!row.length) return null;
                          return [
                            <div key={`f${f}`} className="sales-floor">
                              {f}F
                            </div>,
                            ...row.map((c) => (
                              <Tooltip
                                key={c.hid}
                                title={`${c.title} ${c.area}㎡ ${c.state_ch}${c.price ? ` ${formatMoney(c.price, { unit: '元' })}` : ''}${c.party_name ? ` ${c.party_name}` : ''}`}
                              >
                                <button
                                  type="button"
                                  className="sales-cell"
                                  onClick={() => open(c)}
                                  style={{
                                    background: LOOK[c.state].background,
                                    borderColor: LOOK[c.state].border,
                                    opacity: focus && focus !== c.state ? 0.3 : 1,
                                  }}
                                  data-testid={`salestable-cell-${c.hid}`}
                                  data-state={c.state}
                                >
                                  <div className="sales-cell-title">{c.title}</div>
                                  <div>{c.state_ch}</div>
                                  <div>{wan(c.price) || `${c.area}㎡`}</div>
                                </button>
                              </Tooltip>
                            )),
                            ...Array.from({ length: perFloor - row.length }, (_, i) => <div key={`e${f}-${i}`} />),
                          ];
                        })}
                      </div>
                    </div>
                  </Card>
                );
              })}
            </div>
          </Space>
        )}
      </Spin>
    </Space>
  );
}
