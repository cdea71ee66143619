import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Alert, Button, Descriptions, Form, Input, InputNumber, Modal, Segmented, Space, Spin } from 'antd';
import type { RenewalOrder } from '@wuye/contract/renewal';
import { LIMITS } from '@wuye/contract/codes';
import { MSG } from '@wuye/contract/messages';
import { ApiError, call, request } from '../../api/client';
import QrImage from '../../components/QrImage';
import { useDialogs } from '../../stores/dialogs';
import { daysLeftOf, useSystem } from '../../stores/system';
import { useUser } from '../../stores/user';
import { formatMoney } from '../../utils/formatMoney';

type Mode = 'qr' | 'code';

/** After a renewal the page reloads with fresh system info (docs/product.md#renewal). */
function reloadAfterRenewal() {
  useSystem.getState().setInfo(null);
  window.location.reload();
}

/**
 * Renewal (docs/product.md#renewal): scan-to-pay QR (price per year from the server, polled every second, a
 * manual complete-payment button) or an activation code. Forced (days left < 0 or AUTH_END):
 * no close button, no Esc, no mask click; only log out or pay.
 */
export default function RenewalDialog() {
  const { modal } = App.useApp();
  const open = useDialogs((s) => s.renewalOpen);
  const forced = useDialogs((s) => s.renewalForced);
  const info = useSystem((s) => s.info);
  const [mode, setMode] = useState<Mode>('qr');
  const [years, setYears] = useState(1);
  /** the order made for `years` (a new one whenever the years change) */
  const [made, setMade] = useState<{ years: number; order: RenewalOrder | null } | null>(null);
  const [payMsg, setPayMsg] = useState('');
  const [done, setDone] = useState(false);
  const [activating, setActivating] = useState(false);
  const [querying, setQuerying] = useState(false);
  const inFlight = useRef(false);
  const [form] = Form.useForm<{ act_code: string }>();

  const finish = useCallback(
    (text: string) => {
      setDone(true);
      modal.success({
        title: '支付结果',
        content: <span data-testid="renewal-result">{text}</span>,
        okText: '确定',
        keyboard: false,
        onOk: reloadAfterRenewal,
      });
    },
    [modal],
  );

  const wantOrder = open && mode === 'qr' && !done;
  const order = made && made.years === years ? made.order : null;
  const creating = wantOrder && (!made || made.years !== years);

  // a new order whenever the dialog shows the QR code for a number of years
  useEffect(() => {
    if (!wantOrder) return;
    let alive = true;
    call('get_region_delay_pay', { years })
      .then((d) => {
        if (alive) setMade({ years, order: d.items });
      })
      .catch(() => {
        if (alive) setMade({ years, order: null });
      });
    return () => {
      alive = false;
    };
  }, [wantOrder, years]);

  const query = useCallback(
    async (manual: boolean) => {
      if (!order || inFlight.current || done) return;
      inFlight.current = true;
      if (manual) setQuerying(true);
      try {
        const answer = await request('pay_query', { orderid: order.orderid, pay_type: '1' }, { silent: true });
        finish(answer.return_msg || '支付成功');
      } catch (err) {
        // a failed query shows its return_msg in the dialog (docs/product.md#errors)
        if (err instanceof ApiError && err.code !== 'ABORTED') setPayMsg(err.message);
      } finally {
        inFlight.current = false;
        if (manual) setQuerying(false);
      }
    },
    [order, done, finish],
  );

  // polling every second while the QR code is shown (docs/product.md#renewal)
  useEffect(() => {
    if (!open || mode !== 'qr' || !order || done) return;
    const timer = setInterval(() => void query(false), LIMITS.payPollMs);
    return () => clearInterval(timer);
  }, [open, mode, order, done, query]);

  const activate = async () => {
    let values: { act_code: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setActivating(true);
    try {
      const answer = await request('regiondelay_foractcode', { act_code: values.act_code.trim() });
      finish(answer.return_msg || '激活成功');
    } catch {
      // the client toasted the reason
    } finally {
      setActivating(false);
    }
  };

  const logout = () => {
    void useUser
      .getState()
      .logout()
      .then(() => window.location.assign('/login'));
  };

  const close = () => useDialogs.getState().closeRenewal();
  const daysLeft = daysLeftOf(info);
  const price = order?.price_per_year ?? info?.price_per_year ?? '';

  const footer = (
    <Space>
      {forced ? (
        <Button onClick={logout} data-testid="renewal-logout">
          退出登录
        </Button>
      ) : (
        <Button onClick={close} data-testid="renewal-cancel">
          {MSG.cancel}
        </Button>
      )}
      {mode === 'qr' ? (
        <Button type="primary" onClick={() => void query(true)} loading={querying} disabled={!order} data-testid="renewal-complete">
          我已完成支付
        </Button>
      ) : (
        <Button type="primary" onClick={() => void activate()} loading={activating} data-testid="renewal-actcode-submit">
          立即激活
        </Button>
      )}
    </Space>
  );

  return (
    <Modal
      open={open}
      title="小区续费"
      width={520}
      closable={!forced}
      keyboard={!forced}
      mask={{ closable: !forced }}
      onCancel={close}
      footer={footer}
      destroyOnHidden
    >
      <div data-testid="renewal-dialog" data-forced={forced ? '1' : '0'}>
        {forced && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            title="小区服务已到期，请续费后继续使用"
            data-testid="renewal-forced-notice"
          />
        )}
        <Descriptions
          size="small"
          column={1}
          bordered
          style={{ marginBottom: 12 }}
          items={[
            { key: 'region', label: '小区', children: info?.region_title || '-' },
            { key: 'end', label: '到期时间', children: info?.end_time || '-' },
            { key: 'days', label: '剩余天数', children: daysLeft === null ? '-' : daysLeft < 0 ? '已到期' : `${daysLeft} 天` },
          ]}
        />
        <Segmented<Mode>
          block
          value={mode}
          onChange={(m) => {
            setMode(m);
            setPayMsg('');
          }}
          options={[
            { value: 'qr', label: <span data-testid="renewal-mode-qr">扫码支付</span> },
            { value: 'code', label: <span data-testid="renewal-mode-code">激活码</span> },
          ]}
          style={{ marginBottom: 16 }}
        />
        {mode === 'qr' ? (
          <div className="renewal-qr" style={{ textAlign: 'center' }}>
            <Space style={{ marginBottom: 12 }} wrap>
              <span>续费年限</span>
              <InputNumber
                min={1}
                max={5}
                value={years}
                onChange={(v) => {
                  setYears(v ?? 1);
                  setPayMsg('');
                }}
                data-testid="renewal-years"
              />
              <span>年</span>
              <span style={{ marginLeft: 12 }}>
                单价 <b data-testid="renewal-price">{formatMoney(price)}</b> 元/年
              </span>
            </Space>
            <Spin spinning={creating}>
              <div style={{ minHeight: 200 }}>
                {order && (
                  <>
                    <div>
                      应付金额{' '}
                      <b style={{ color: '#f5222d', fontSize: 18 }} data-testid="renewal-total">
                        {formatMoney(order.total_fee)}
                      </b>{' '}
                      元
                    </div>
                    <QrImage text={order.payparam.code_url} size={180} testId="renewal-qr" />
                    <div style={{ color: '#909399', fontSize: 12 }}>请使用微信扫码支付，支付完成后自动续费</div>
                    <a
                      href={order.payparam.code_url}
                      target="_blank"
                      rel="noreferrer"
                      style={{ fontSize: 12 }}
                      data-testid="renewal-pay-link"
                    >
                      模拟支付
                    </a>
                  </>
                )}
              </div>
            </Spin>
          </div>
        ) : (
          <Form form={form} layout="vertical">
            <Form.Item name="act_code" label="激活码" rules={[{ required: true, whitespace: true, message: MSG.actCodeRequired }]}>
              <Input placeholder="请输入激活码" maxLength={64} data-testid="renewal-actcode-input" onPressEnter={() => void activate()} />
            </Form.Item>
          </Form>
        )}
        {payMsg && mode === 'qr' && <Alert type="warning" showIcon title={payMsg} data-testid="renewal-pay-msg" />}
      </div>
    </Modal>
  );
}
