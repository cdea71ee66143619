import { useMemo, useState } from 'react';
import { Button, Card, Col, DatePicker, Empty, Row, Segmented, Space, Statistic, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined, RightOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  PANNEL_CARD_KEYS,
  PANNEL_CARDS,
  PANNEL_MAX_DAYS,
  PANNEL_SECTIONS,
  PANNEL_TILE_GROUPS,
  type PannelCardKey,
  type PannelSection,
} from '@wuye/contract/fees/pannel';
import { call } from '../../../api/client';
import { MoneyStatistic } from '../../../components/Money';
import { useRoutesInfo } from '../../../router/context';
import { findFlat } from '../../../router/helpers';

type Preset = 'today' | 'yesterday' | 'last7' | 'last30' | 'custom';
const PRESETS: { value: Preset; label: string }[] = [
  { value: 'today', label: '今天' },
  { value: 'yesterday', label: '昨天' },
  { value: 'last7', label: '近7天' },
  { value: 'last30', label: '近30天' },
  { value: 'custom', label: '自定义' },
];

/** The days of a preset, ending today (the browser keeps the business time zone). */
function presetRange(p: Exclude<Preset, 'custom'>): [Dayjs, Dayjs] {
  const today = dayjs().startOf('day');
  if (p === 'yesterday') return [today.subtract(1, 'day'), today.subtract(1, 'day')];
  if (p === 'last7') return [today.subtract(6, 'day'), today];
  if (p === 'last30') return [today.subtract(29, 'day'), today];
  return [today, today];
}

/** A report of the tiles that lives outside /feecounts. */
const TILE_ELSEWHERE: Record<string, string> = { refundlist: '/fees/refundlist' };

/** 报表首页 (/feecounts/pannelindex, docs/product.md#report-home): the period's figures and every report of the area. */
export default function PannelIndex() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flat } = useRoutesInfo();
  const [preset, setPreset] = useState<Preset>('today');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presetRange('today'));
  const payload = { start_date: range[0].format('YYYY-MM-DD'), end_date: range[1].format('YYYY-MM-DD') };
  const q = useQuery({ queryKey: ['pannelindex', payload], queryFn: () => call('pannelindex', payload), retry: false });
  const figures = q.data?.figures;

  /** A card's address when the user may open its report: the period in it where the report reads it. */
  const cardLink = (key: PannelCardKey): string | undefined => {
    const link = PANNEL_CARDS[key].link as { path: string; range?: boolean };
    if (!findFlat(flat, link.path)) return undefined;
    return link.range ? `${link.path}?start_date=${payload.start_date}&end_date=${payload.end_date}` : link.path;
  };

  const sections = useMemo(
    () =>
      (Object.keys(PANNEL_SECTIONS) as PannelSection[])
        .map((s) => ({
          key: s,
          title: PANNEL_SECTIONS[s],
          cards: PANNEL_CARD_KEYS.filter((k) => PANNEL_CARDS[k].section === s && figures?.[k] !== null && figures?.[k] !== undefined),
        }))
        .filter((s) => s.cards.length > 0),
    [figures],
  );

  const tileGroups = PANNEL_TILE_GROUPS.map((g) => ({
    ...g,
    pages: g.paths
      .map((p) => findFlat(flat, `/feecounts/${p}`) ?? (TILE_ELSEWHERE[p] ? findFlat(flat, TILE_ELSEWHERE[p]) : undefined))
      .filter((f) => !!f)
      .map((f) => ({ path: f.fullPath, title: t(f.route.meta?.title ?? f.fullPath), Icon: f.route.meta?.icon })),
  })).filter((g) => g.pages.length > 0);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="pannelindex-page">
      <Card size="small">
        <Space wrap>
          <Segmented<Preset>
            value={preset}
            options={PRESETS}
            data-testid="pannel-period"
            onChange={(p) => {
              setPreset(p);
              if (p !== 'custom') setRange(presetRange(p));
            }}
          />
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            inputReadOnly
            style={{ maxWidth: 260 }}
            data-testid="pannel-range"
            disabledDate={(d, info) => {
              const from = info.from;
              return !!from && Math.abs(d.diff(from, 'day')) >= PANNEL_MAX_DAYS;
            }}
            onChange={(v) => {
              if (v?.[0] && v[1]) {
                setRange([v[0], v[1]]);
                setPreset('custom');
              }
            }}
          />
          <Typography.Text type="secondary" data-testid="pannel-range-text">
            {payload.start_date === payload.end_date ? payload.start_date : `${payload.start_date} 至 ${payload.end_date}`}
          </Typography.Text>
        </Space>
      </Card>

      {q.isLoading ? (
        <Card loading />
      ) : sections.length === 0 ? (
        <Card>
          <Empty description="暂无可查看的数据" />
        </Card>
      ) : (
        sections.map((s) => (
          <Card key={s.key} size="small" title={s.title} data-testid={`pannel-section-${s.key}`}>
            <Row gutter={[12, 12]}>
              {s.cards.map((key) => {
                const def = PANNEL_CARDS[key];
                const href = cardLink(key);
                const value = figures?.[key];
                const title = (
                  <Space size={4}>
                    {def.title}
                    {key === 'receivable' && q.data && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {q.data.start_period === q.data.end_period ? q.data.start_period : `${q.data.start_period}～${q.data.end_period}`}
                      </Typography.Text>
                    )}
                    <Tooltip title={def.formula}>
                      <QuestionCircleOutlined style={{ color: 'rgba(0,0,0,0.45)' }} />
                    </Tooltip>
                  </Space>
                );
                return (
                  // an amount takes a phone's whole row: seven digits and the fen do not fit half of it
                  <Col key={key} xs={def.kind === 'money' ? 24 : 12} sm={12} md={8} lg={6} xl={6}>
                    <Card
                      size="small"
                      hoverable={!!href}
                      onClick={href ? () => void navigate(href) : undefined}
                      data-testid={`pannel-card-${key}`}
                      style={{ height: '100%', cursor: href ? 'pointer' : 'default' }}
                    >
                      {def.kind === 'money' ? (
                        <MoneyStatistic title={title} value={value as string} loading={q.isFetching} />
                      ) : (
                        <Statistic title={title} value={value as number} loading={q.isFetching} />
                      )}
                    </Card>
                  </Col>
                );
              })}
            </Row>
          </Card>
        ))
      )}

      {tileGroups.map((g) => (
        <Card key={g.key} size="small" title={g.title} data-testid={`pannel-tiles-${g.key}`}>
          <Row gutter={[12, 12]}>
            {g.pages.map(({ path, title, Icon }) => (
              <Col key={path} xs={12} sm={8} md={6} lg={4}>
                <Button
                  block
                  icon={Icon ? <Icon /> : undefined}
                  onClick={() => void navigate(path)}
                  data-testid={`pannel-tile-${path}`}
                  style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}
                >
                  <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{title}</span>
                  <RightOutlined style={{ fontSize: 10, color: 'rgba(0,0,0,0.35)' }} />
                </Button>
              </Col>
            ))}
          </Row>
        </Card>
      ))}
    </Space>
  );
}
