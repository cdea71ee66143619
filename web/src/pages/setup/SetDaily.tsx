import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Popconfirm, Select, Space, Spin, Switch, Tag, Typography } from 'antd';
import type { DailySettingItem } from '@wuye/contract/setup/settings';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { validValues } from '../../utils/forms';
import './settings.css';

type Values = Record<string, boolean | number | string>;

const shownDefault = (i: DailySettingItem): string => {
  if (i.type === 'boolean') return i.default ? '开' : '关';
  if (i.type === 'enum') return i.options?.find((o) => o.value === i.default)?.label ?? String(i.default);
  if (i.type === 'number') return `${String(i.default)}${i.unit ?? ''}`;
  return i.default === '' ? '（空）' : String(i.default);
};

function inputOf(i: DailySettingItem) {
  const testid = `setdaily-${i.key}`;
  switch (i.type) {
    case 'boolean':
      return <Switch checkedChildren="开" unCheckedChildren="关" data-testid={testid} />;
    case 'number':
      return <InputNumber min={i.min} max={i.max} precision={0} addonAfter={i.unit} style={{ width: 200 }} data-testid={testid} />;
    case 'enum':
      return <Select options={i.options} style={{ width: 200 }} data-testid={testid} />;
    default:
      return <Input maxLength={i.max} showCount allowClear data-testid={testid} />;
  }
}

/** /setup/setdaily: the community's daily switches grouped by area, each with its help and default. */
export default function SetDaily() {
  const [items, setItems] = useState<DailySettingItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<Values>();

  const show = (next: DailySettingItem[]) => {
    setItems(next);
    form.setFieldsValue(Object.fromEntries(next.map((i) => [i.key, i.value])));
  };
  useEffect(() => {
    call('setdailylist')
      .then((d) => show(d.items))
      .catch(() => setFailed(true));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the page opens
  }, []);

  const areas = useMemo(() => {
    const by = new Map<string, DailySettingItem[]>();
    for (const i of items ?? []) by.set(i.area, [...(by.get(i.area) ?? []), i]);
    return [...by.entries()];
  }, [items]);

  const save = async () => {
    const v = await validValues(form);
    if (!v || !items) return;
    // only what differs from what the page read
    const values = Object.fromEntries(
      items.filter((i) => v[i.key] !== undefined && v[i.key] !== null && v[i.key] !== i.value).map((i) => [i.key, v[i.key]]),
    );
    if (Object.keys(values).length === 0) {
      noticeSuccess('没有改动');
      return;
    }
    setSaving(true);
    try {
      const answer = await request('setdailyedit', { values });
      noticeSuccess(answer.return_msg);
      show(answer.data.items);
    } catch {
      // the client has shown the message
    } finally {
      setSaving(false);
    }
  };

  const reset = async (keys: string[]) => {
    try {
      const answer = await request('setdailyreset', { keys: keys as Array<DailySettingItem['key']> });
      noticeSuccess(answer.return_msg);
      show(answer.data.items);
    } catch {
      // the client has shown the message
    }
  };
  const changed = (items ?? []).filter((i) => i.changed === 'Y');

  return (
    <Card
      title="日常设置"
      variant="borderless"
      data-testid="setdaily-page"
      extra={
        items && (
          <Space wrap>
            <Popconfirm title="全部恢复为默认值？" onConfirm={() => void reset(changed.map((i) => i.key))} disabled={changed.length === 0}>
              <Button disabled={changed.length === 0} data-testid="setdaily-reset-all">
                全部恢复默认
              </Button>
            </Popconfirm>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="setdaily-save">
              保存
            </Button>
          </Space>
        )
      }
    >
      {failed && <Alert type="error" showIcon message="日常设置读取失败，请刷新重试" />}
      {!items && !failed && <Spin />}
      {items && (
        <Form form={form} layout="vertical" className="setdaily-form">
          {areas.map(([area, list]) => (
            <Card key={area} type="inner" title={area} className="setdaily-area" data-testid={`setdaily-area-${area}`}>
              {list.map((i) => (
                <Form.Item
                  key={i.key}
                  label={
                    <span className="setdaily-item-head">
                      {i.title}
                      {i.changed === 'Y' && <Tag color="blue">已修改</Tag>}
                    </span>
                  }
                  extra={
                    <>
                      {i.help}
                      <Typography.Text type="secondary">（默认：{shownDefault(i)}）</Typography.Text>
                      {i.changed === 'Y' && (
                        <Button type="link" size="small" onClick={() => void reset([i.key])} data-testid={`setdaily-reset-${i.key}`}>
                          恢复默认
                        </Button>
                      )}
                    </>
                  }
                >
                  <Form.Item
                    name={i.key}
                    noStyle
                    valuePropName={i.type === 'boolean' ? 'checked' : 'value'}
                    rules={
                      i.type === 'number'
                        ? [{ required: true, message: `请输入${i.title}` }]
                        : i.type === 'text'
                          ? [{ max: i.max, message: `${i.title}不能超过${String(i.max)}个字符` }]
                          : []
                    }
                  >
                    {inputOf(i)}
                  </Form.Item>
                </Form.Item>
              ))}
            </Card>
          ))}
        </Form>
      )}
    </Card>
  );
}
