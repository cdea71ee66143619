import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import {
  GATE_DECISION,
  type BoothConsole as Console,
  type GateDecision,
  type GateEventItem,
  type StayBreakdown,
  type StayItem,
  type StayQrAnswer,
} from '@wuye/contract/carpark/gate';
import { PLATE_COLOR, type PlateColor } from '@wuye/contract/carpark/cars';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import QrImage from '../../components/QrImage';
import { TextPromptModal } from '../../components/TextPromptModal';
import { Money } from '../../components/Money';
import { EnumTag, SmallSelect } from '../../components/resource';
import { useIdempotentSubmit } from '../fees/useIdempotentSubmit';
import { FeeBreakdown, minutesText } from './FeeBreakdown';
import { StayDrawer } from './CarInout';

const WIRE = 'YYYY-MM-DD HH:mm:ss';

/** What the gate's display shows: green when it opens, amber while it waits, red when it refuses. */
function GateDisplay({ d }: { d: GateDecision }) {
  const color = d.decision === 'open' ? '#52c41a' : d.decision === 'refuse' ? '#ff4d4f' : '#faad14';
  return (
    <div
      data-testid="booth-display"
      style={{ background: '#111', color, fontSize: 18, padding: '12px 16px', borderRadius: 6, fontFamily: 'monospace', minHeight: 48 }}
    >
      {d.content}
    </div>
  );
}

/** The guard opens by hand: the reason is required and kept on the stay. */
function ManualOpen({
  target,
  onClose,
}: {
  target: { lane_id: number; plate: string; at: string } | null;
  onClose: (d?: GateDecision) => void;
}) {
  return (
    <TextPromptModal
      open={!!target}
      title={`人工放行 ${target?.plate ?? ''}`}
      label="放行原因"
      required="请填写人工放行原因"
      placeholder="如 车主忘带手机，次日补缴"
      testIds={{ text: 'booth-manual-note', ok: 'booth-manual-ok' }}
      send={(note) => request('gatemanualopen', { ...target!, note })}
      onDone={(d) => onClose(d)}
      onCancel={() => onClose()}
    />
  );
}

/** The QR code of a stay's fee; asks the provider every two seconds until it is paid. */
function QrPay({ qr, onClose }: { qr: StayQrAnswer | null; onClose: (paid: boolean, exit?: GateDecision | null) => void }) {
  const [state, setState] = useState<'W' | 'Y' | 'C'>('W');
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    setState('W');
    if (!qr) return;
    let alive = true;
    const timer = setInterval(() => {
      call('staypayquery', { orderid: qr.orderid }, { silent: true })
        .then((s) => {
          if (!alive || s.status === 'W') return;
          setState(s.status);
          clearInterval(timer);
          if (s.status === 'Y') closeRef.current(true, s.paid?.exit ?? null);
        })
        .catch(() => undefined);
    }, 2000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [qr]);
  return (
    <Modal open={!!qr} title="扫码支付停车费" footer={null} onCancel={() => onClose(false)} destroyOnHidden>
      {qr && (
        <div style={{ textAlign: 'center' }} data-testid="booth-qr">
          <QrImage text={qr.code_url} size={200} />
          <p>
            应付 <Money value={qr.amount} unit="¥" />
            ，请车主扫码支付（订单 {qr.orderid}）
          </p>
          <p>{state === 'W' ? '等待支付…' : state === 'Y' ? '已支付' : '订单已取消'}</p>
          <Typography.Link href={qr.code_url} target="_blank" data-testid="booth-qr-link">
            在新窗口打开支付页
          </Typography.Link>
        </div>
      )}
    </Modal>
  );
}

/** Corrects a misread plate of a car inside. */
function PlateFix({ stay, onClose }: { stay: StayItem | null; onClose: (done: boolean) => void }) {
  return (
    <TextPromptModal
      open={!!stay}
      title={`更正车牌 ${stay?.carno ?? ''}`}
      label="正确车牌"
      required="请输入车牌号"
      placeholder="如 沪A12345"
      maxLength={10}
      testIds={{ text: 'booth-fix-plate', ok: 'booth-fix-ok' }}
      send={(plate) => request('stayplatefix', { id: stay!.id, plate })}
      onDone={() => onClose(true)}
      onCancel={() => onClose(false)}
    />
  );
}

/** One of the console's small paged lists (the cars inside, the manual openings, the gate log). */
function SmallTable<T extends { id: number }>({
  columns,
  list,
  scrollX,
  testId,
}: {
  columns: TableColumnsType<T>;
  list: { items: T[]; loading: boolean; page: number; limit: number; total: number; setPage: (p: number, size?: number) => void };
  scrollX: number;
  testId: string;
}) {
  return (
    <Table<T>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={list.items}
      loading={list.loading}
      pagination={{ current: list.page, pageSize: list.limit, total: list.total, onChange: list.setPage, size: 'small' }}
      scroll={{ x: scrollX }}
      data-testid={testId}
    />
  );
}

interface SimForm {
  lane_id?: number;
  plate?: string;
  plate_color?: PlateColor | '';
  at?: Dayjs;
}

/**
 * 岗亭值守 (/carpark/booth; docs/product.md#parking-gates): the guard's screen. The simulator sends a
 * plate seen at a lane (at a time the guard may set, to play a stay's clock) and shows the lane's
 * decision, the gate's text and the fee; the guard takes cash or a QR payment, opens by hand with a
 * reason, and corrects misread plates of the cars inside.
 */
export default function BoothConsole() {
  const [boothId, setBoothId] = useState<number | undefined>();
  const [form] = Form.useForm<SimForm>();
  const [decision, setDecision] = useState<GateDecision | null>(null);
  const [busy, setBusy] = useState(false);
  const [manualTarget, setManualTarget] = useState<{ lane_id: number; plate: string; at: string } | null>(null);
  const [qr, setQr] = useState<StayQrAnswer | null>(null);
  const [fixing, setFixing] = useState<StayItem | null>(null);
  const [stayOpen, setStayOpen] = useState<number | null>(null);
  const [quote, setQuote] = useState<{ plate: string; due: string; breakdown: StayBreakdown | null; reason_ch: string } | null>(null);
  const pay = useIdempotentSubmit();

  const booths = useQuery({ queryKey: ['booth-console', 'booths'], queryFn: () => call('parkingbooth_small_list', {}) });
  useEffect(() => {
    const first = booths.data?.items[0];
    if (boothId === undefined && first) setBoothId(first.id);
  }, [booths.data, boothId]);
  const consoleQuery = useQuery({
    queryKey: ['booth-console', boothId],
    queryFn: () => call('boothconsole', { booth_id: boothId! }),
    enabled: !!boothId,
  });
  const info: Console | undefined = consoleQuery.data;
  const lotId = info?.lot_id ?? 0;
  // the lot the inside list was given (it asks only once it has one)
  const [insideLot, setInsideLot] = useState(0);
  const inside = useList('parkinginsidelist', { lot_id: lotId }, { enabled: insideLot > 0 });
  const events = useList('gateeventlist', { booth_id: boothId, sort: 'desc' }, { enabled: !!boothId });
  const todayRange = (): [string, string] => [dayjs().format('YYYY-MM-DD'), dayjs().format('YYYY-MM-DD')];
  const manualToday = useList(
    'gateeventlist',
    { booth_id: boothId, reason: 'manual', sort: 'desc', event_at: todayRange() },
    { enabled: !!boothId },
  );
  const { setFilters: setInside } = inside;
  const { setFilters: setEvents } = events;
  const { setFilters: setManual } = manualToday;
  // the lists follow the booth chosen (useList keeps the filters it was first given)
  useEffect(() => {
    if (!lotId) return;
    setInside({ lot_id: lotId });
    setInsideLot(lotId);
  }, [lotId, setInside]);
  useEffect(() => {
    if (!boothId) return;
    setEvents({ booth_id: boothId, sort: 'desc' });
    setManual({ booth_id: boothId, reason: 'manual', sort: 'desc', event_at: todayRange() });
  }, [boothId, setEvents, setManual]);
  useEffect(() => {
    if (info && !form.getFieldValue('lane_id')) form.setFieldsValue({ lane_id: info.lanes[0]?.id });
  }, [info, form]);

  const refresh = () => {
    void consoleQuery.refetch();
    inside.reload();
    events.reload();
    manualToday.reload();
  };
  const eventAt = () => (form.getFieldValue('at') as Dayjs | undefined)?.format(WIRE) ?? '';

  const send = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      setDecision(
        await call('gateevent', { lane_id: v.lane_id!, plate: v.plate!, plate_color: v.plate_color ?? '', at: v.at?.format(WIRE) ?? '' }),
      );
      refresh();
    } catch {
      setDecision(null);
    } finally {
      setBusy(false);
    }
  };
  const payCash = async () => {
    if (!decision) return;
    const answer = await pay.submit((idempotency_key) =>
      request('staypay', { id: decision.stay_id, at: decision.at, amount: decision.due, lane_id: decision.lane_id, idempotency_key }),
    );
    if (!answer) return;
    noticeSuccess(`${answer.return_msg}，收据 ${answer.data.receipt_no}`);
    if (answer.data.exit) setDecision(answer.data.exit);
    refresh();
  };
  const payQr = async () => {
    if (!decision) return;
    try {
      setQr(await call('staypayqr', { id: decision.stay_id, at: decision.at, amount: decision.due, lane_id: decision.lane_id }));
    } catch {
      /* shown by the client */
    }
  };
  const quoteOf = async (s: StayItem) => {
    try {
      const q = await call('stayquote', { id: s.id, at: eventAt() });
      setQuote({ plate: s.carno, due: q.due, breakdown: q.breakdown, reason_ch: q.reason_ch });
    } catch {
      /* shown by the client */
    }
  };

  const insideColumns: TableColumnsType<StayItem> = [
    { title: '车牌号', dataIndex: 'carno', width: 110 },
    { title: '车辆类型', dataIndex: 'car_type', width: 90 },
    { title: '入场时间', dataIndex: 'intime', width: 170 },
    { title: '已停', dataIndex: 'minutes', width: 120, render: (m: number) => minutesText(m) },
    { title: '状态', dataIndex: 'state_ch', width: 80 },
    {
      title: '操作',
      key: 'op',
      width: 200,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void quoteOf(r)} data-testid={`booth-quote-${r.id}`}>
            计费
          </Button>
          <Button type="link" size="small" onClick={() => setFixing(r)} data-testid={`booth-fix-${r.id}`}>
            更正车牌
          </Button>
          <Button type="link" size="small" onClick={() => setStayOpen(r.id)}>
            详情
          </Button>
        </Space>
      ),
    },
  ];
  const eventColumns: TableColumnsType<GateEventItem> = [
    { title: '时间', dataIndex: 'at', width: 170 },
    { title: '车道', dataIndex: 'lane_title', width: 110 },
    { title: '车牌号', dataIndex: 'plate', width: 110 },
    { title: '判定', dataIndex: 'decision', width: 80, render: (v: string) => <EnumTag enum={GATE_DECISION} value={v} /> },
    { title: '原因', dataIndex: 'reason_ch', width: 120 },
    { title: '显示文字', dataIndex: 'content', ellipsis: true },
    { title: '操作人', dataIndex: 'operator', width: 90 },
  ];

  return (
    <div data-testid="booth-page">
      <Card size="small">
        <Space wrap align="center" style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <span>岗亭</span>
            <SmallSelect
              widget={{ small: 'parkingbooth_small_list' }}
              values={{}}
              value={boothId}
              onChange={(v) => {
                setBoothId(v as number);
                setDecision(null);
                form.setFieldsValue({ lane_id: undefined });
              }}
              style={{ width: 220 }}
              testId="booth-select"
            />
            {info?.lanes.map((l) => (
              <Tag
                key={l.id}
                color={l.online === 'Y' ? 'success' : 'default'}
                title={l.last_heartbeat ? `最后心跳 ${l.last_heartbeat}` : '无心跳'}
              >
                {l.title}（{l.direction === 'I' ? '入口' : '出口'}）{l.online === 'Y' ? '在线' : '离线'}
              </Tag>
            ))}
          </Space>
        </Space>
        {info && (
          <Row gutter={16} style={{ marginTop: 12 }} data-testid="booth-figures">
            <Col xs={12} md={6}>
              <Statistic title="场内车辆" value={info.inside} suffix={`/ ${info.total_spaces}`} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="今日临时车收费笔数" value={info.today_count} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="今日临时车收费（元）" value={info.today_amount} data-testid="booth-today-amount" />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="今日人工放行" value={info.manual_today} />
            </Col>
          </Row>
        )}
      </Card>
      {booths.data && booths.data.items.length === 0 && (
        <Alert style={{ marginTop: 12 }} type="info" showIcon message="还没有岗亭：请先在 停车场管理 中为停车场添加岗亭和车道" />
      )}
      <Row gutter={12} style={{ marginTop: 12 }}>
        <Col xs={24} lg={10}>
          <Card size="small" title="道闸模拟器">
            <Form form={form} layout="vertical" onFinish={() => void send()}>
              <Form.Item name="lane_id" label="车道" rules={[{ required: true, message: '请选择车道' }]}>
                <Select
                  options={info?.lanes.map((l) => ({ value: l.id, label: `${l.title}（${l.direction === 'I' ? '入口' : '出口'}）` }))}
                  data-testid="booth-lane"
                />
              </Form.Item>
              <Form.Item name="plate" label="车牌号" rules={[{ required: true, message: '请输入车牌号' }]}>
                <Input maxLength={10} placeholder="识别到的车牌，如 沪A12345" data-testid="booth-plate" />
              </Form.Item>
              <Form.Item name="plate_color" label="车牌颜色" extra="相机识别的颜色：黄牌按大型车、绿牌按新能源车计费；不选则按车牌判断">
                <Select allowClear placeholder="按车牌判断" options={enumOptions(PLATE_COLOR)} data-testid="booth-color" />
              </Form.Item>
              <Form.Item name="at" label="事件时间" extra="留空为现在；模拟停车时长时可设为将来或过去的时间">
                <DatePicker showTime format={WIRE} style={{ width: '100%' }} data-testid="booth-at" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={busy} block data-testid="booth-send">
                识别车牌
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title="判定结果" data-testid="booth-decision" data-event={decision?.event_id ?? ''}>
            {!decision && <Typography.Text type="secondary">选择车道并输入车牌后，这里显示闸口的判定。</Typography.Text>}
            {decision && (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Space wrap>
                  <EnumTag enum={GATE_DECISION} value={decision.decision} />
                  <Tag data-testid="booth-reason">{decision.reason_ch}</Tag>
                  <span>
                    {decision.plate} · {decision.car_type} · {decision.lane_title} · {decision.at}
                  </span>
                </Space>
                <GateDisplay d={decision} />
                {decision.entry_time && decision.direction === 'O' && <span>入场时间 {decision.entry_time}</span>}
                {decision.breakdown && <FeeBreakdown b={decision.breakdown} testId="booth-fee" narrow />}
                <Space wrap>
                  {decision.decision === 'pay' && (
                    <>
                      <Button type="primary" loading={pay.submitting} onClick={() => void payCash()} data-testid="booth-cash">
                        现金收费 ¥{decision.due}
                      </Button>
                      <Button onClick={() => void payQr()} data-testid="booth-qr-pay">
                        扫码支付
                      </Button>
                    </>
                  )}
                  {decision.decision !== 'open' && (
                    <Button
                      danger
                      onClick={() => setManualTarget({ lane_id: decision.lane_id, plate: decision.plate, at: decision.at })}
                      data-testid="booth-manual"
                    >
                      {decision.decision === 'wait' ? '确认放行' : '人工放行'}
                    </Button>
                  )}
                </Space>
              </Space>
            )}
          </Card>
        </Col>
      </Row>
      <Card size="small" style={{ marginTop: 12 }}>
        <Tabs
          items={[
            {
              key: 'inside',
              label: `场内车辆（${inside.total}）`,
              children: <SmallTable<StayItem> columns={insideColumns} list={inside} scrollX={800} testId="booth-inside" />,
            },
            {
              key: 'manual',
              label: `今日人工放行（${manualToday.total}）`,
              children: <SmallTable<GateEventItem> columns={eventColumns} list={manualToday} scrollX={900} testId="booth-manual-list" />,
            },
            {
              key: 'events',
              label: '判定记录',
              children: <SmallTable<GateEventItem> columns={eventColumns} list={events} scrollX={900} testId="booth-events" />,
            },
          ]}
        />
      </Card>
      <ManualOpen
        target={manualTarget}
        onClose={(d) => {
          setManualTarget(null);
          if (d) {
            setDecision(d);
            refresh();
          }
        }}
      />
      <QrPay
        qr={qr}
        onClose={(paid, exit) => {
          setQr(null);
          if (paid) {
            noticeSuccess('扫码支付成功');
            if (exit) setDecision(exit);
            refresh();
          }
        }}
      />
      <PlateFix
        stay={fixing}
        onClose={(done) => {
          setFixing(null);
          if (done) refresh();
        }}
      />
      <Modal open={!!quote} title={`计费 ${quote?.plate ?? ''}`} footer={null} onCancel={() => setQuote(null)} width={720} destroyOnHidden>
        {quote &&
          (quote.breakdown ? (
            <FeeBreakdown b={quote.breakdown} testId="booth-quote" />
          ) : (
            <p>
              {quote.reason_ch}，应付 ¥{quote.due}
            </p>
          ))}
      </Modal>
      <StayDrawer id={stayOpen} onClose={() => setStayOpen(null)} />
    </div>
  );
}
