import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Radio, Result, Select, Space, Spin, Tag, Typography } from 'antd';
import { useQuery, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  CHARGE_MAX_HOURS,
  CHARGE_MODE,
  CHARGE_TIER,
  enumOptions,
  enumText,
  fenToYuan,
  prepayFen,
  toFen,
  type ChargeMode,
  type ChargePhoneInfo,
  type ChargePhoneOrder,
} from '@wuye/contract';
import { ApiError, call } from '../../api/client';
import { formatMoney } from '../../utils/formatMoney';

/**
 * /h5/charge?rid=&code= (扫码充电; docs/product.md#charging-piles): the page a pile's QR code opens
 * on the owner's phone, outside the console's session. The owner proves their mobile with an SMS
 * code and gets a charge session of their own (kept in this tab's session storage only), which may
 * call the phone's charging methods and nothing else; then picks a port, a mode and the prepayment,
 * follows the session and stops it, and reads the settlement.
 */
interface PhoneSession {
  token: string;
  realname: string;
}

const params = new URLSearchParams(window.location.search);
const rid = Number(params.get('rid'));
const pileCode = params.get('code') ?? '';
const KEY = `chargePhone:${rid}`;
const ORDER_KEY = `chargePhoneOrder:${rid}`;

function readSession(): PhoneSession | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as PhoneSession | null;
    return v && typeof v.token === 'string' ? v : null;
  } catch {
    return null;
  }
}

const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
const errText = (err: unknown) => (err instanceof ApiError ? err.message : '操作失败，请稍后再试');
/** a charge session that is no more (expired, ended): sign in again */
const isRelogin = (err: unknown) => err instanceof ApiError && ['50008', '50012', '50014', 'NO_PERMISSION'].includes(err.code);

export default function PhonePage() {
  const [session, setSession] = useState<PhoneSession | null>(readSession);
  const ended = () => {
    sessionStorage.removeItem(KEY);
    setSession(null);
  };
  return (
    <QueryClientProvider client={client}>
      <div style={{ maxWidth: 480, margin: '0 auto', padding: 12, minHeight: '100vh', background: '#f5f5f5' }} data-testid="charge-phone">
        <Typography.Title level={4} style={{ margin: '4px 0 12px', textAlign: 'center' }}>
          扫码充电
        </Typography.Title>
        {!rid || !pileCode ? (
          <Result status="warning" title="二维码无效" subTitle="请重新扫描充电桩上的二维码" />
        ) : session ? (
          <Charging session={session} onEnded={ended} />
        ) : (
          <Verify
            onDone={(s) => {
              sessionStorage.setItem(KEY, JSON.stringify(s));
              setSession(s);
            }}
          />
        )}
      </div>
    </QueryClientProvider>
  );
}

/** The mobile and its SMS code, traded for a charge session. */
function Verify({ onDone }: { onDone: (s: PhoneSession) => void }) {
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [wait, setWait] = useState(0);
  const [title, setTitle] = useState('');
  const [sandboxUrl, setSandboxUrl] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);
  const send = async () => {
    setError('');
    setBusy(true);
    try {
      const d = await call(
        'chargephonecode',
        { rid, charger_code: pileCode, mobile: mobile.trim() },
        { silent: true, noRelogin: true, token: '' },
      );
      setTitle(d.charger_title);
      setSandboxUrl(d.sandbox_url);
      setWait(d.resend_in);
      setNotice(`验证码已发送至 ${mobile.trim()}，${d.expires_in / 60} 分钟内有效`);
    } catch (err) {
      setError(errText(err));
    } finally {
      setBusy(false);
    }
  };
  const verify = async () => {
    setError('');
    setBusy(true);
    try {
      const d = await call(
        'chargephonelogin',
        { rid, mobile: mobile.trim(), code: code.trim() },
        { silent: true, noRelogin: true, token: '' },
      );
      onDone({ token: d.token, realname: d.realname });
    } catch (err) {
      setError(errText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={title || `充电桩 ${pileCode}`} data-testid="charge-phone-verify">
      <Typography.Paragraph type="secondary">
        请输入在本小区登记的手机号，验证后即可在此充电桩充电，费用从会员余额预付。
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={() => void verify()}>
        <Form.Item label="手机号">
          <Input
            inputMode="numeric"
            maxLength={11}
            placeholder="请输入手机号"
            value={mobile}
            onChange={(e) => setMobile(e.target.value)}
            data-testid="charge-phone-mobile"
          />
        </Form.Item>
        <Form.Item label="短信验证码">
          <Space.Compact style={{ width: '100%' }}>
            <Input
              inputMode="numeric"
              maxLength={6}
              placeholder="6 位验证码"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              data-testid="charge-phone-code"
            />
            <Button disabled={wait > 0 || busy || mobile.trim().length !== 11} onClick={() => void send()} data-testid="charge-phone-send">
              {wait > 0 ? `${wait} 秒后重发` : '获取验证码'}
            </Button>
          </Space.Compact>
        </Form.Item>
        {notice && <Alert type="success" showIcon title={notice} style={{ marginBottom: 12 }} data-testid="charge-phone-sent" />}
        {sandboxUrl && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title="演示环境：短信不会真实发送"
            description={
              <a href={sandboxUrl} target="_blank" rel="noreferrer" data-testid="charge-phone-sandbox">
                查看沙箱短信中的验证码
              </a>
            }
          />
        )}
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="charge-phone-error" />}
        <Button type="primary" block htmlType="submit" loading={busy} disabled={code.trim().length !== 6} data-testid="charge-phone-login">
          验证并登录
        </Button>
      </Form>
    </Card>
  );
}

const MODE_UNIT: Record<ChargeMode, string> = { hours: '小时', energy: 'kWh', amount: '元', full: '元' };

/** The pile, the owner's balance and their session. */
function Charging({ session, onEnded }: { session: PhoneSession; onEnded: () => void }) {
  const opts = { silent: true, noRelogin: true, token: session.token } as const;
  const [orderId, setOrderId] = useState<number | null>(() => Number(sessionStorage.getItem(ORDER_KEY)) || null);
  const info = useQuery({
    queryKey: ['chargephoneinfo', session.token],
    queryFn: () => call('chargephoneinfo', { charger_code: pileCode }, opts),
  });
  useEffect(() => {
    if (info.error && isRelogin(info.error)) onEnded();
  }, [info.error, onEnded]);
  // a session of the owner still running on this phone's community: followed
  const live = info.data?.live[0];
  const followed = orderId ?? live?.id ?? null;
  const follow = (id: number | null) => {
    if (id) sessionStorage.setItem(ORDER_KEY, String(id));
    else sessionStorage.removeItem(ORDER_KEY);
    setOrderId(id);
  };
  if (info.isLoading) return <Spin style={{ display: 'block', marginTop: 80 }} />;
  if (info.error || !info.data) return <Alert type="error" showIcon title={errText(info.error)} data-testid="charge-phone-error" />;
  const d = info.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12}>
      <PileCard info={d} />
      <Card size="small" data-testid="charge-phone-member">
        <Descriptions column={1} size="small">
          <Descriptions.Item label="业主">
            {d.member.realname}（{d.member.mobile}）
          </Descriptions.Item>
          <Descriptions.Item label="会员余额">
            <span data-testid="charge-phone-balance">{formatMoney(d.member.balance, { unit: '元' })}</span>
          </Descriptions.Item>
          {d.member.month_card && <Descriptions.Item label="充电月卡">{d.member.month_card}</Descriptions.Item>}
        </Descriptions>
      </Card>
      {followed ? (
        <OrderCard
          id={followed}
          token={session.token}
          onDone={() => {
            follow(null);
            void info.refetch();
          }}
          onChanged={() => void info.refetch()}
          onEnded={onEnded}
        />
      ) : (
        <StartCard
          info={d}
          token={session.token}
          onStarted={(id) => {
            follow(id);
            void info.refetch();
          }}
        />
      )}
    </Space>
  );
}

function PileCard({ info }: { info: ChargePhoneInfo }) {
  const c = info.charger;
  return (
    <Card
      size="small"
      title={c.title}
      extra={c.online === 'Y' ? <Tag color="success">在线</Tag> : <Tag>离线</Tag>}
      data-testid="charge-phone-pile"
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="类型">
          {c.kind_ch}，额定功率 {c.power_kw} kW
        </Descriptions.Item>
        {c.kind === 'car' ? (
          <>
            <Descriptions.Item label="分时电价">
              <div>
                {c.tou.map((b) => (
                  <div key={`${b.start}-${b.end}`}>
                    {b.start}–{b.end} {enumText(CHARGE_TIER, b.tier)} {b.price} 元/kWh
                  </div>
                ))}
              </div>
            </Descriptions.Item>
            <Descriptions.Item label="服务费">{c.service_fee} 元/kWh</Descriptions.Item>
          </>
        ) : (
          <Descriptions.Item label="按功率计时">
            <div>
              {c.bands.map((b) => (
                <div key={`${b.min_w}-${b.max_w}`}>
                  {b.min_w}–{b.max_w} W：{b.price} 元/小时
                </div>
              ))}
            </div>
          </Descriptions.Item>
        )}
        <Descriptions.Item label="插座">
          <Space size={4} wrap>
            {info.ports.map((p) => (
              <Tag key={p.id} color={p.state === 'free' ? 'success' : p.state === 'fault' ? 'error' : 'processing'}>
                {p.no}号 {p.state_ch}
              </Tag>
            ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** A free port, a mode and its value; the prepayment as the server will hold it. */
function StartCard({ info, token, onStarted }: { info: ChargePhoneInfo; token: string; onStarted: (id: number) => void }) {
  const free = info.ports.filter((p) => p.state === 'free');
  const [portId, setPortId] = useState<number | undefined>(free[0]?.id);
  const [mode, setMode] = useState<ChargeMode>('hours');
  const [value, setValue] = useState<string>('2');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const c = info.charger;
  const prepay = useMemo(() => {
    try {
      if (!value || toFen(value) <= 0n) return null;
      return fenToYuan(
        prepayFen({ kind: c.kind, tou: c.tou, bands: c.bands, service_fee: c.service_fee, power_kw: c.power_kw }, mode, value),
      );
    } catch {
      return null;
    }
  }, [c, mode, value]);
  const start = async () => {
    if (!portId) return;
    setError('');
    setBusy(true);
    try {
      const d = await call(
        'chargephonestart',
        { charger_code: pileCode, port_id: portId, mode, value },
        { silent: true, noRelogin: true, token },
      );
      onStarted(d.id);
    } catch (err) {
      setError(errText(err));
    } finally {
      setBusy(false);
    }
  };
  const short = prepay !== null && toFen(prepay) > toFen(info.member.balance);
  return (
    <Card size="small" title="开始充电" data-testid="charge-phone-start-card">
      {c.online !== 'Y' || c.enabled !== 'Y' ? (
        <Alert type="warning" showIcon title="充电桩暂不可用（离线或停用），请稍后再试或联系物业" />
      ) : free.length === 0 ? (
        <Alert type="info" showIcon title="暂无空闲插座，请稍后再试" />
      ) : (
        <Form layout="vertical" onFinish={() => void start()}>
          <Form.Item label="插座">
            <Radio.Group value={portId} onChange={(e) => setPortId(e.target.value as number)} data-testid="charge-phone-port">
              {info.ports.map((p) => (
                <Radio.Button key={p.id} value={p.id} disabled={p.state !== 'free'} data-testid={`charge-phone-port-${p.no}`}>
                  {p.no}号
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
          <Form.Item label="充电方式">
            <Radio.Group
              value={mode}
              onChange={(e) => {
                const m = e.target.value as ChargeMode;
                setMode(m);
                setValue(m === 'hours' ? '2' : m === 'energy' ? '10' : '20');
              }}
              options={enumOptions(CHARGE_MODE)}
              optionType="button"
              data-testid="charge-phone-mode"
            />
          </Form.Item>
          <Form.Item label={mode === 'hours' ? '时长' : mode === 'energy' ? '电量' : mode === 'full' ? '最多花费' : '金额'}>
            {mode === 'hours' ? (
              <Select
                value={value}
                onChange={setValue}
                options={Array.from({ length: CHARGE_MAX_HOURS }, (_, i) => ({ value: String(i + 1), label: `${i + 1} 小时` }))}
                data-testid="charge-phone-value"
              />
            ) : (
              <InputNumber
                style={{ width: '100%' }}
                min="0.01"
                step="1"
                precision={2}
                stringMode
                value={value}
                onChange={(v) => setValue(v === null ? '' : String(v))}
                addonAfter={MODE_UNIT[mode]}
                data-testid="charge-phone-value"
              />
            )}
          </Form.Item>
          <Alert
            type={short ? 'warning' : 'info'}
            style={{ marginBottom: 12 }}
            title={
              <span data-testid="charge-phone-prepay">
                预付 {prepay === null ? '—' : formatMoney(prepay, { unit: '元' })}，从会员余额扣除；结算后多余部分退回余额
              </span>
            }
          />
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="charge-phone-error" />}
          <Button
            type="primary"
            block
            htmlType="submit"
            loading={busy}
            disabled={!portId || prepay === null}
            data-testid="charge-phone-start"
          >
            开始充电
          </Button>
        </Form>
      )}
    </Card>
  );
}

/** The session: refreshed while it runs, then its settlement. */
function OrderCard({
  id,
  token,
  onDone,
  onChanged,
  onEnded,
}: {
  id: number;
  token: string;
  onDone: () => void;
  /** the session moved on (charging, settled): the ports and the balance shown above are read again */
  onChanged: () => void;
  onEnded: () => void;
}) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const q = useQuery({
    queryKey: ['chargephoneorder', id, token],
    queryFn: () => call('chargephoneorder', { id }, { silent: true, noRelogin: true, token }),
    refetchInterval: (query) => {
      const o = query.state.data as ChargePhoneOrder | undefined;
      return !o || ['starting', 'charging', 'stopping'].includes(o.state) ? 3000 : false;
    },
  });
  useEffect(() => {
    if (q.error && isRelogin(q.error)) onEnded();
  }, [q.error, onEnded]);
  const state = q.data?.state;
  const told = useRef<string | undefined>(undefined);
  useEffect(() => {
    // once a state: the pile above (its ports) and the balance are read again
    if (!state || told.current === state) return;
    const first = told.current === undefined;
    told.current = state;
    if (!first) onChanged();
  }, [state, onChanged]);
  if (q.isLoading) return <Spin style={{ display: 'block', margin: 24 }} />;
  if (!q.data) return <Alert type="error" showIcon title={errText(q.error)} action={<Button onClick={onDone}>返回</Button>} />;
  const o = q.data;
  const settled = !['starting', 'charging', 'stopping'].includes(o.state);
  const stop = async () => {
    setError('');
    setBusy(true);
    try {
      await call('chargephonestop', { id }, { silent: true, noRelogin: true, token });
      await q.refetch();
    } catch (err) {
      setError(errText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      size="small"
      title={settled ? '充电结算' : '充电中'}
      extra={<Tag color={settled ? (o.state === 'failed' ? 'error' : 'success') : 'processing'}>{o.state_ch}</Tag>}
      data-testid="charge-phone-order"
      data-state={o.state}
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="订单号">{o.order_no}</Descriptions.Item>
        <Descriptions.Item label="充电桩">
          {o.charger_title} {o.port_no}号插座
        </Descriptions.Item>
        <Descriptions.Item label="方式">
          {o.mode_ch} {o.mode === 'hours' ? `${Number(o.mode_value)} 小时` : `${o.mode_value} ${MODE_UNIT[o.mode]}`}
        </Descriptions.Item>
        {o.start_time && <Descriptions.Item label="开始时间">{o.start_time}</Descriptions.Item>}
        {!settled && o.state !== 'starting' && (
          <Descriptions.Item label="功率">
            <span data-testid="charge-phone-power">{o.power_w} W</span>
          </Descriptions.Item>
        )}
        <Descriptions.Item label="电表读数">
          <span data-testid="charge-phone-meter">{o.meter_kwh} kWh</span>
        </Descriptions.Item>
        <Descriptions.Item label={settled ? '充电电量' : '已充电量'}>
          <span data-testid="charge-phone-energy">{o.energy_kwh} kWh</span>
        </Descriptions.Item>
        <Descriptions.Item label="预付">{formatMoney(o.prepaid, { unit: '元' })}</Descriptions.Item>
        <Descriptions.Item label={settled ? '实付金额' : '当前费用'}>
          <span data-testid="charge-phone-amount">{formatMoney(o.amount || '0', { unit: '元' })}</span>
        </Descriptions.Item>
        {settled && (
          <>
            <Descriptions.Item label="退回余额">
              <Typography.Text strong type="success" data-testid="charge-phone-refund">
                {formatMoney(o.refund || '0', { unit: '元' })}
              </Typography.Text>
            </Descriptions.Item>
            {o.end_reason_ch && <Descriptions.Item label="结束原因">{o.end_reason_ch}</Descriptions.Item>}
            {o.end_time && <Descriptions.Item label="结束时间">{o.end_time}</Descriptions.Item>}
          </>
        )}
        <Descriptions.Item label="当前余额">
          <span data-testid="charge-phone-order-balance">{formatMoney(o.balance, { unit: '元' })}</span>
        </Descriptions.Item>
      </Descriptions>
      {o.error && <Alert type="warning" showIcon title={o.error} style={{ margin: '8px 0' }} />}
      {error && <Alert type="error" showIcon title={error} style={{ margin: '8px 0' }} data-testid="charge-phone-error" />}
      {o.state === 'starting' && <Alert type="info" showIcon title="正在启动，请插好充电枪…" style={{ margin: '8px 0' }} />}
      {o.state === 'stopping' && <Alert type="info" showIcon title="正在结束，等待充电桩送来最后读数后结算…" style={{ margin: '8px 0' }} />}
      {o.state === 'charging' && (
        <Button danger block loading={busy} onClick={() => void stop()} data-testid="charge-phone-stop">
          停止充电
        </Button>
      )}
      {settled && (
        <Button block onClick={onDone} data-testid="charge-phone-again">
          完成
        </Button>
      )}
    </Card>
  );
}
