import { useEffect, useState } from 'react';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Row,
  Space,
  Switch,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { APP_SERVICE_CODES, type AppServiceCode } from '@wuye/contract/mobilesys/apply';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource } from '../../components/resource';

interface ServiceForm {
  enabled: boolean;
  title: string;
  intro: string;
  hours: string;
  phone: string;
  sort: number;
}

/**
 * 应用设置 (/apply/apply_info?code=; docs/product.md#owner-app): one service of the owner app: on or
 * off, the name and introduction the owners see, its hours and phone, its place; the app's menus that
 * open it; and every change, who made it and when.
 */
export default function ApplyInfo() {
  const [params] = useSearchParams();
  const raw = params.get('code') ?? '';
  const code = (APP_SERVICE_CODES as readonly string[]).includes(raw) ? (raw as AppServiceCode) : null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ServiceForm>();
  const [saving, setSaving] = useState(false);
  const info = useQuery({ queryKey: ['applyinfo', code], queryFn: () => call('applyinfo', { code: code! }), enabled: !!code });
  const s = info.data;
  useEffect(() => {
    if (s)
      form.setFieldsValue({ enabled: s.enabled === 'Y', title: s.title, intro: s.intro, hours: s.hours, phone: s.phone, sort: s.sort });
  }, [s, form]);
  if (!code) return <Empty description="应用不存在" />;
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await request('applyedit', { code, ...v, enabled: v.enabled ? 'Y' : 'N' });
      noticeSuccess(answer.return_msg);
      await queryClient.invalidateQueries({ queryKey: ['applyinfo', code] });
      await queryClient.invalidateQueries({ queryKey: ['applylist'] });
      void invalidateResource(queryClient, 'appmenu');
    } catch {
      /* the client showed why */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Row gutter={[16, 16]} data-testid="applyinfo-page">
      <Col xs={24} lg={14}>
        <Card title={s ? `应用设置：${s.default_title}` : '应用设置'} loading={info.isLoading}>
          {s && (
            <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
              <Descriptions.Item label="后台处理页面">
                <Typography.Link onClick={() => void navigate(s.console)}>{s.console}</Typography.Link>
              </Descriptions.Item>
              <Descriptions.Item label="最后修改">
                {s.updated_by ? `${s.updated_by} ${s.update_time}` : '未修改（使用默认设置）'}
              </Descriptions.Item>
            </Descriptions>
          )}
          <Form form={form} layout="vertical" onFinish={() => void save()}>
            <Form.Item name="enabled" label="开通" valuePropName="checked">
              <Switch checkedChildren="已开通" unCheckedChildren="未开通" data-testid="applyinfo-enabled" />
            </Form.Item>
            <Form.Item
              name="title"
              label="App中显示的名称"
              rules={[
                { required: true, message: '请输入应用名称' },
                { max: 10, message: '应用名称不超过10个字' },
              ]}
            >
              <Input maxLength={10} data-testid="applyinfo-title" />
            </Form.Item>
            <Form.Item name="intro" label="简介">
              <Input.TextArea maxLength={100} rows={2} />
            </Form.Item>
            <Form.Item name="hours" label="服务时间">
              <Input maxLength={40} placeholder="如 周一至周日 8:00-20:00" data-testid="applyinfo-hours" />
            </Form.Item>
            <Form.Item name="phone" label="服务电话">
              <Input maxLength={20} placeholder="如 400-800-1234" />
            </Form.Item>
            <Form.Item name="sort" label="排序" extra="数字小的在前">
              <InputNumber min={0} max={9999} precision={0} />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="applyinfo-save">
                保存
              </Button>
              <Button onClick={() => void navigate('/apply/apply')}>返回</Button>
            </Space>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title="指向它的菜单" size="small" style={{ marginBottom: 16 }}>
          <List
            size="small"
            dataSource={s?.menu_items ?? []}
            locale={{ emptyText: '没有菜单指向它' }}
            renderItem={(m) => (
              <List.Item>
                <Space>
                  {m.title}
                  <Tag>{m.position_ch}</Tag>
                  {m.status === 'N' && <Tag>停用</Tag>}
                </Space>
              </List.Item>
            )}
          />
        </Card>
        <Card title="修改记录" size="small" data-testid="applyinfo-logs">
          {s && s.logs.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚无修改" />}
          <Timeline
            items={(s?.logs ?? []).map((l) => ({
              color: l.after.enabled === 'N' ? 'gray' : 'green',
              children: (
                <>
                  <div>{l.change}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {l.operator} {l.create_time}
                  </Typography.Text>
                </>
              ),
            }))}
          />
        </Card>
      </Col>
    </Row>
  );
}
