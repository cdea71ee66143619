import { useState } from 'react';
import { Alert, App, Button, Card, Col, Descriptions, Form, Input, Row, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { WXSYS_FLAGS, type WxAccountItem, type WxKind } from '@wuye/contract/leader/wxsys';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useUser } from '../../stores/user';
import { validValues } from '../../utils/forms';

const INFO_KEY = ['setwxsysinfo'];

interface WxForm {
  app_id: string;
  name: string;
  original_id?: string;
  qrcode_url?: string;
  app_secret?: string;
  token_secret?: string;
  aes_key_secret?: string;
}

/** A secret field: written only; its mask says what is stored and a blank leaves it. */
function secretHelp(masked: string): string {
  return masked ? `${masked}（加密保存，不再显示；留空则不修改）` : '未设置（加密保存，保存后不再显示）';
}

const OA_CHECKLIST = [
  '须为已认证的服务号',
  '在公众平台把业务域名、JS接口安全域名、网页授权域名设为业主端域名',
  '把服务器IP加入IP白名单',
  '菜单链接须带上AppID（?wAppId=）',
  '模板消息ID在公众平台获取',
];

function WxCard({ item }: { item: WxAccountItem }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<WxForm>();
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const kind: WxKind = item.kind;
  const oa = kind === 'oa';
  const tid = (name: string) => `wxsys-${kind}-${name}`;

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('setwxsysedit', {
        kind,
        app_id: v.app_id,
        name: v.name,
        original_id: v.original_id ?? '',
        qrcode_url: v.qrcode_url ?? '',
        app_secret: v.app_secret ?? '',
        token_secret: v.token_secret ?? '',
        aes_key_secret: v.aes_key_secret ?? '',
      });
      noticeSuccess(answer.return_msg);
      form.setFieldsValue({ app_secret: '', token_secret: '', aes_key_secret: '' });
      await queryClient.invalidateQueries({ queryKey: INFO_KEY });
    } catch {
      // the client showed the refusal
    } finally {
      setSaving(false);
    }
  };

  const test = async () => {
    setTesting(true);
    try {
      const answer = await request('setwxsystest', { kind });
      if (answer.data.ok) void message.success(answer.data.message);
      else void message.error(answer.data.message, 6);
      await queryClient.invalidateQueries({ queryKey: INFO_KEY });
    } catch {
      // shown by the client
    } finally {
      setTesting(false);
    }
  };

  return (
    <Card
      variant="borderless"
      title={oa ? '公众号' : '小程序'}
      data-testid={`wxsys-${kind}`}
      extra={
        <Space>
          <Button onClick={() => void test()} loading={testing} disabled={!item.saved} data-testid={tid('test')}>
            测试
          </Button>
          <Button type="primary" onClick={() => void save()} loading={saving} data-testid={tid('save')}>
            保存
          </Button>
        </Space>
      }
    >
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ span: 7 }}
        wrapperCol={{ span: 16 }}
        initialValues={{ app_id: item.app_id, name: item.name, original_id: item.original_id, qrcode_url: item.qrcode_url }}
      >
        <Form.Item name="name" label={oa ? '公众号名称' : '小程序名称'} rules={[{ required: true, message: '请输入名称' }, { max: 30 }]}>
          <Input data-testid={tid('name')} />
        </Form.Item>
        <Form.Item
          name="app_id"
          label="AppID"
          rules={[
            { required: true, message: '请输入AppID' },
            { pattern: /^wx[0-9a-zA-Z]{16}$/, message: 'AppID应以wx开头，共18位字母或数字' },
          ]}
        >
          <Input placeholder="wx 开头的18位" data-testid={tid('app-id')} />
        </Form.Item>
        <Form.Item
          name="app_secret"
          label="AppSecret"
          extra={<span data-testid={tid('app-secret-mask')}>{secretHelp(item.app_secret_masked)}</span>}
          rules={[
            ...(item.app_secret_masked ? [] : [{ required: true, message: '请输入AppSecret' }]),
            { pattern: /^[0-9a-zA-Z]{32}$/, message: 'AppSecret应为32位字母或数字' },
          ]}
        >
          <Input.Password
            autoComplete="new-password"
            placeholder={item.app_secret_masked ? '留空则不修改' : ''}
            data-testid={tid('app-secret')}
          />
        </Form.Item>
        {oa && (
          <>
            <Form.Item
              name="token_secret"
              label="令牌（Token）"
              extra={secretHelp(item.token_masked)}
              rules={[{ pattern: /^[0-9a-zA-Z]{3,32}$/, message: '令牌（Token）应为3至32位字母或数字' }]}
            >
              <Input.Password
                autoComplete="new-password"
                placeholder={item.token_masked ? '留空则不修改' : ''}
                data-testid={tid('token')}
              />
            </Form.Item>
            <Form.Item
              name="aes_key_secret"
              label="EncodingAESKey"
              extra={secretHelp(item.aes_key_masked)}
              rules={[{ pattern: /^[0-9a-zA-Z]{43}$/, message: 'EncodingAESKey应为43位字母或数字' }]}
            >
              <Input.Password
                autoComplete="new-password"
                placeholder={item.aes_key_masked ? '留空则不修改' : ''}
                data-testid={tid('aes-key')}
              />
            </Form.Item>
          </>
        )}
        <Form.Item
          name="original_id"
          label="原始ID"
          rules={[{ pattern: /^gh_[0-9a-zA-Z]{12}$/, message: '原始ID应以gh_开头，共15位字母或数字' }]}
        >
          <Input placeholder="gh_ 开头" data-testid={tid('original-id')} />
        </Form.Item>
        {oa && (
          <Form.Item
            name="qrcode_url"
            label="二维码图片"
            rules={[{ pattern: /^https?:\/\/\S+$/, message: '二维码图片地址应以 http:// 或 https:// 开头' }]}
          >
            <Input placeholder="https://" data-testid={tid('qrcode-url')} />
          </Form.Item>
        )}
      </Form>
      <Descriptions size="small" column={1} data-testid={tid('status')}>
        <Descriptions.Item label="最近测试">
          {item.last_test_ok ? (
            <Space size={4} wrap>
              <Tag color={item.last_test_ok === 'Y' ? 'success' : 'error'}>{item.last_test_ok === 'Y' ? '通过' : '未通过'}</Tag>
              <Typography.Text type="secondary">{item.last_test_time}</Typography.Text>
              <Typography.Text type={item.last_test_ok === 'Y' ? 'secondary' : 'danger'}>{item.last_test_result}</Typography.Text>
            </Space>
          ) : (
            <Typography.Text type="secondary">{item.saved ? '未测试' : '尚未保存'}</Typography.Text>
          )}
        </Descriptions.Item>
        {item.update_time && (
          <Descriptions.Item label="更新于">
            {item.update_time}
            {item.update_by && ` 由 ${item.update_by}`}
          </Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}

/** 公众号/小程序设置 (/setup/setwxsys on the group side): each half shown only to an account holding its permission. */
export default function SetWxsys() {
  const permissions = useUser((s) => s.permissions);
  const allowed = permissions.includes(WXSYS_FLAGS.oa) || permissions.includes(WXSYS_FLAGS.mini);
  const info = useQuery({ queryKey: INFO_KEY, queryFn: () => call('setwxsysinfo', {}), enabled: allowed });
  if (!allowed)
    return (
      <Card variant="borderless" title="公众号/小程序设置">
        <Alert type="warning" showIcon message="您的账号没有公众号或小程序设置权限，请联系平台开通" data-testid="wxsys-denied" />
      </Card>
    );
  const { oa, mini } = info.data ?? { oa: null, mini: null };
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Alert
        type="info"
        showIcon
        message="AppSecret、令牌（Token）和 EncodingAESKey 加密保存，只写不读，页面只显示后四位；编辑时留空则保持原值。测试在沙箱中检查参数是否齐全、格式是否正确，不连接微信服务器。"
        description={
          oa ? (
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {OA_CHECKLIST.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : undefined
        }
      />
      <Row gutter={12}>
        {/* keyed by the save time: a save refills the form with what is stored */}
        {oa && (
          <Col xs={24} xl={mini ? 12 : 24}>
            <WxCard key={`oa-${oa.update_time}`} item={oa} />
          </Col>
        )}
        {mini && (
          <Col xs={24} xl={oa ? 12 : 24}>
            <WxCard key={`mini-${mini.update_time}`} item={mini} />
          </Col>
        )}
      </Row>
      {info.isLoading && <Card loading variant="borderless" />}
    </Space>
  );
}
