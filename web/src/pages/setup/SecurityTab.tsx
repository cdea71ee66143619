import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Form, InputNumber, Select, Space, Spin, Switch, Typography } from 'antd';
import { DEFAULT_SECURITY, PASSWORD_COMPLEXITY, type SecurityInfo, type SecurityPolicy } from '@wuye/contract/setup/security';
import { enumOptions, enumText } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { validValues } from '../../utils/forms';

const off = (v: number, unit: string) => (v === 0 ? '不启用' : `${v} ${unit}`);

/** The policy in words (the group's, on the community side). */
function PolicyText({ p }: { p: SecurityPolicy }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
      <Descriptions.Item label="密码长度">{p.min_length} - 18 位</Descriptions.Item>
      <Descriptions.Item label="复杂度">{enumText(PASSWORD_COMPLEXITY, p.complexity)}</Descriptions.Item>
      <Descriptions.Item label="有效期">{off(p.expire_days, '天')}</Descriptions.Item>
      <Descriptions.Item label="登录锁定">
        {p.lockout_attempts === 0
          ? '不启用（连续输错后等待时间逐次加倍）'
          : `连续输错 ${p.lockout_attempts} 次锁定 ${p.lockout_minutes} 分钟`}
      </Descriptions.Item>
      <Descriptions.Item label="空闲超时">{off(p.idle_minutes, '分钟')}</Descriptions.Item>
    </Descriptions>
  );
}

const zeroOrRange = (min: number, max: number, what: string) => ({
  validator: (_: unknown, v: number | null) =>
    v === null || v === undefined
      ? Promise.reject(new Error(`请输入${what}`))
      : v === 0 || (v >= min && v <= max)
        ? Promise.resolve()
        : Promise.reject(new Error(`${what}为 0（不启用）或 ${min} 到 ${max}`)),
});

/**
 * 安全: the security policy. Community side: the group's default, and the community's own where the
 * group allows it; group side: the default and whether communities may set their own.
 */
export default function SecurityTab() {
  const [info, setInfo] = useState<SecurityInfo | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [own, setOwn] = useState(false);
  const [allow, setAllow] = useState(true);
  const [form] = Form.useForm<SecurityPolicy>();

  const show = (i: SecurityInfo) => {
    setInfo(i);
    setOwn(i.own !== null);
    setAllow(i.allow_override === 'Y');
    form.setFieldsValue(i.side === 'group' ? i.group : (i.own ?? i.group));
  };
  useEffect(() => {
    call('securityinfo')
      .then(show)
      .catch(() => setFailed(true));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the tab opens
  }, []);

  const save = async () => {
    if (!info) return;
    const group = info.side === 'group';
    let payload: Parameters<typeof request<'setsecurity'>>[1];
    if (!group && !own) payload = { inherit: 'Y' };
    else {
      const v = await validValues(form);
      if (!v) return;
      payload = group ? { policy: v, allow_override: allow ? 'Y' : 'N' } : { policy: v };
    }
    setSaving(true);
    try {
      const answer = await request('setsecurity', payload);
      noticeSuccess(answer.return_msg);
      show(answer.data);
    } catch {
      // the client has shown the message
    } finally {
      setSaving(false);
    }
  };

  if (failed) return <Alert type="error" showIcon message="安全策略读取失败，请刷新重试" />;
  if (!info) return <Spin />;
  const group = info.side === 'group';
  const editable = group || (own && info.allow_override === 'Y');
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="security-tab">
      {!group && (
        <>
          <Typography.Text strong>集团默认策略</Typography.Text>
          <PolicyText p={info.group} />
          {info.allow_override === 'Y' ? (
            <Space>
              <Switch checked={own} onChange={setOwn} data-testid="security-own" />
              <span>本小区单独设置（关闭则跟随集团）</span>
            </Space>
          ) : (
            <Alert type="info" showIcon message="集团不允许小区单独设置安全策略，本小区执行集团默认策略" />
          )}
        </>
      )}
      {group && (
        <Space>
          <Switch checked={allow} onChange={setAllow} data-testid="security-allow-override" />
          <span>允许各小区单独设置</span>
        </Space>
      )}
      {editable && (
        <Form form={form} layout="vertical" className="setsys-form" initialValues={DEFAULT_SECURITY}>
          <Form.Item name="min_length" label="密码最小长度" extra="6 到 18 位" rules={[{ required: true, message: '请输入密码最小长度' }]}>
            <InputNumber min={6} max={18} precision={0} addonAfter="位" style={{ width: 200 }} data-testid="security-min_length" />
          </Form.Item>
          <Form.Item name="complexity" label="密码复杂度">
            <Select options={enumOptions(PASSWORD_COMPLEXITY)} style={{ maxWidth: 420 }} data-testid="security-complexity" />
          </Form.Item>
          <Form.Item
            name="expire_days"
            label="密码有效期"
            extra="超过天数后，登录时须先修改密码；0 为永不过期"
            rules={[zeroOrRange(7, 365, '密码有效期')]}
          >
            <InputNumber min={0} max={365} precision={0} addonAfter="天" style={{ width: 200 }} data-testid="security-expire_days" />
          </Form.Item>
          <Form.Item
            name="lockout_attempts"
            label="连续输错锁定"
            extra="连续输错密码达到次数后锁定账号；0 为不锁定（连续输错后等待时间逐次加倍）"
            rules={[zeroOrRange(3, 20, '锁定前允许的错误次数')]}
          >
            <InputNumber min={0} max={20} precision={0} addonAfter="次" style={{ width: 200 }} data-testid="security-lockout_attempts" />
          </Form.Item>
          <Form.Item name="lockout_minutes" label="锁定时长" rules={[{ required: true, message: '请输入锁定时长' }]}>
            <InputNumber min={1} max={1440} precision={0} addonAfter="分钟" style={{ width: 200 }} data-testid="security-lockout_minutes" />
          </Form.Item>
          <Form.Item
            name="idle_minutes"
            label="空闲超时"
            extra="超过分钟数没有操作，需重新登录；0 为不启用"
            rules={[zeroOrRange(5, 1440, '空闲超时')]}
          >
            <InputNumber min={0} max={1440} precision={0} addonAfter="分钟" style={{ width: 200 }} data-testid="security-idle_minutes" />
          </Form.Item>
        </Form>
      )}
      {(group || info.allow_override === 'Y') && (
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="setsys-save-security">
          保存安全策略
        </Button>
      )}
      {!group && (
        <>
          <Typography.Text strong>本小区生效的策略</Typography.Text>
          <PolicyText p={info.effective} />
        </>
      )}
    </Space>
  );
}
