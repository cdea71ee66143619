import { App, Badge, Card, Col, Empty, Radio, Row, Space, Switch, Tag, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AppServiceItem } from '@wuye/contract/mobilesys/apply';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { invalidateResource } from '../../components/resource';

/** Saves a service's switch, keeping its other settings. */
export const saveService = (s: AppServiceItem, enabled: 'Y' | 'N') =>
  request('applyedit', { code: s.code, enabled, title: s.title, intro: s.intro, hours: s.hours, phone: s.phone, sort: s.sort });

/**
 * 应用管理 (/apply/apply; docs/product.md#owner-app): the services of the owner app as cards, each
 * switched on or off for the community; switching one off hides the app's menus that open it.
 * 设置 opens its settings and history (/apply/apply_info?code=).
 */
export default function ApplyList() {
  const [shown, setShown] = useState<'' | 'Y' | 'N'>('');
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['applylist', shown], queryFn: () => call('applylist', { enabled: shown }) });
  const toggle = (s: AppServiceItem, on: boolean) => {
    const run = async () => {
      try {
        noticeSuccess((await saveService(s, on ? 'Y' : 'N')).return_msg);
        await queryClient.invalidateQueries({ queryKey: ['applylist'] });
        void invalidateResource(queryClient, 'appmenu');
      } catch {
        /* the client showed why */
      }
    };
    if (on || s.menus === 0) return void run();
    modal.confirm({
      title: `停用${s.title}`,
      content: `停用后，业主App中指向它的 ${s.menus} 个菜单将隐藏。`,
      okText: '停用',
      cancelText: '取消',
      okButtonProps: { danger: true, 'data-testid': 'apply-off-ok' } as ButtonProps,
      onOk: run,
    });
  };
  const items = list.data?.items ?? [];
  return (
    <Card
      title="应用管理"
      data-testid="apply-page"
      extra={
        <Radio.Group value={shown} onChange={(e) => setShown(e.target.value as '' | 'Y' | 'N')} optionType="button" size="small">
          <Radio.Button value="">全部</Radio.Button>
          <Radio.Button value="Y">已开通</Radio.Button>
          <Radio.Button value="N">未开通</Radio.Button>
        </Radio.Group>
      }
    >
      <Typography.Paragraph type="secondary">
        业主App向本小区业主提供的服务。停用的服务在App中不显示，指向它的菜单自动隐藏。集团未开放或本小区未开通所需模块的服务不能开通。
      </Typography.Paragraph>
      {!list.isLoading && items.length === 0 && <Empty />}
      <Row gutter={[16, 16]}>
        {items.map((s) => (
          <Col key={s.code} xs={24} sm={12} lg={8} xl={6}>
            <Card
              size="small"
              data-testid={`apply-${s.code}`}
              title={
                <Space>
                  <Badge status={s.enabled === 'Y' ? 'success' : 'default'} />
                  {s.title}
                </Space>
              }
              extra={
                <Switch
                  checked={s.enabled === 'Y'}
                  // the group's catalogue decides: not open here (or the module is closed), or kept on
                  disabled={s.available === 'N' || (s.enabled === 'Y' && s.allow_hide === 'N')}
                  onChange={(on) => toggle(s, on)}
                  checkedChildren="开"
                  unCheckedChildren="关"
                  data-testid={`apply-switch-${s.code}`}
                />
              }
              actions={[
                <Typography.Link
                  key="set"
                  onClick={() => void navigate(`/apply/apply_info?code=${s.code}`)}
                  data-testid={`apply-info-${s.code}`}
                >
                  <SettingOutlined /> 设置
                </Typography.Link>,
              ]}
            >
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ minHeight: 44, marginBottom: 8 }}>
                {s.intro}
              </Typography.Paragraph>
              <Space size={4} wrap>
                <Tag color={s.enabled === 'Y' ? 'success' : 'default'}>{s.enabled_ch}</Tag>
                {s.available === 'N' && (
                  <Tag color="warning" data-testid={`apply-unavailable-${s.code}`}>
                    {s.unavailable_reason}
                  </Tag>
                )}
                {s.available === 'Y' && s.allow_hide === 'N' && <Tag color="processing">集团要求展示</Tag>}
                {s.allow_reorder === 'N' && <Tag>集团排序</Tag>}
                {s.menus > 0 && <Tag>{s.menus} 个菜单</Tag>}
                {s.title !== s.default_title && <Tag>原名 {s.default_title}</Tag>}
              </Space>
            </Card>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
