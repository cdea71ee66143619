import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Image, Input, Space, Spin, Tabs, Typography } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { GROUP_SETSYS_TABS, SETSYS_TABS, type GroupSysSettings, type SetsysKey, type SysSettings } from '@wuye/contract/setup/settings';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { loadSystemInfo } from '../../router/session';
import { validValues } from '../../utils/forms';
import './settings.css';
import SecurityTab from './SecurityTab';
import { useUser } from '../../stores/user';
import { useSystem } from '../../stores/system';
import ImageUploadButton from '../../components/ImageUploadButton';

const urlRule = { pattern: /^(https?:\/\/|\/)/, message: '地址必须以 http://、https:// 或 / 开头' };
/** Fields that hold an image's address: a preview shows under them. */
const IMAGES = new Set<SetsysKey>(['logo_url', 'service_qr', 'region_img', 'wxapp_qrcodes']);
const URLS = new Set<SetsysKey>([
  'logo_url',
  'service_qr',
  'region_img',
  'property_app_url',
  'wxapp_qrcodes',
  'consume_mobile_app_url',
  'consume_app_url',
  'help_work_url',
]);
const MAX: Partial<Record<SetsysKey, number>> = {
  system_title: 64,
  sub_title: 60,
  short_title: 20,
  company_name: 100,
  copyright: 200,
  title: 60,
  address: 200,
  phone: 30,
  map_point: 40,
};
const HELP: Partial<Record<SetsysKey, string>> = {
  sub_title: '显示在左侧菜单顶部；留空则显示小区名称',
  copyright: '显示在每个页面底部，所有用户可见',
  map_point: '经度,纬度，如 120.15507,30.274084',
  area: '单位：平方米',
  region_img: '设置后顶栏出现“小区平面图”按钮',
  property_app_url: '设置后顶栏“应用下载”中出现物业 App 的二维码',
  wxapp_qrcodes: '小程序二维码图片：上传或填写地址；设置后顶栏“应用下载”中显示',
  consume_mobile_app_url: '设置后顶栏“应用下载”中出现一卡通手机端的二维码',
  consume_app_url: '设置后顶栏“应用下载”中出现一卡通电脑端的下载链接',
  help_work_url: '设置后顶栏出现“帮助”链接',
};

/** How the logo and the subtitle look at the top of the sidebar. */
function SidebarPreview({ logo, title }: { logo: string; title: string }) {
  return (
    <div className="setsys-sidebar-preview" data-testid="setsys-sidebar-preview">
      {logo ? <img src={logo} alt="" /> : <HomeOutlined style={{ fontSize: 24 }} />}
      <span>{title || '物业管理后台'}</span>
    </div>
  );
}

type Tab = (typeof SETSYS_TABS)[number];

/**
 * One tab's form. `save` is the community's setsysinfo or, on the group side, setgroupsysinfo;
 * `inherited` (community side) holds the group's defaults, shown in the empty fields that follow them.
 */
function TabForm<V extends Partial<SysSettings>>({
  tab,
  values,
  onSaved,
  save,
  inherited,
  previewTitle,
}: {
  tab: Tab;
  values: V;
  onSaved: (values: V) => void;
  save: (v: Partial<SysSettings>) => Promise<{ return_msg: string }>;
  inherited?: Partial<GroupSysSettings> | undefined;
  previewTitle: string;
}) {
  const [form] = Form.useForm<Partial<SysSettings>>();
  const [saving, setSaving] = useState(false);
  const watched = Form.useWatch([], form) as Partial<SysSettings> | undefined;
  useEffect(() => {
    form.setFieldsValue(Object.fromEntries(tab.fields.map((f) => [f.key, values[f.key]])));
  }, [form, tab, values]);

  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    setSaving(true);
    try {
      const answer = await save(v);
      noticeSuccess(answer.return_msg);
      onSaved({ ...values, ...v });
      // the shell (sidebar, footer, top bar) shows the new settings at once
      void loadSystemInfo(true);
    } catch {
      // the client has shown the message
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" className="setsys-form" data-testid={`setsys-form-${tab.key}`}>
      {tab.key === 'brand' && (
        <Form.Item label="侧栏预览">
          <SidebarPreview
            logo={(watched?.logo_url ?? values.logo_url) || (inherited?.logo_url ?? '')}
            title={watched?.sub_title || previewTitle}
          />
        </Form.Item>
      )}
      {tab.fields.map((f) => {
        const rules = [];
        if (f.key === 'title') rules.push({ required: true, message: '请输入小区名称' });
        if (URLS.has(f.key)) rules.push(urlRule);
        if (MAX[f.key]) rules.push({ max: MAX[f.key], message: `${f.label}不能超过${MAX[f.key]}个字符` });
        if (f.key === 'area') rules.push({ pattern: /^\d{1,10}(\.\d{1,2})?$/, message: '面积格式不正确，应为不小于0且最多两位小数的数字' });
        const fromGroup = inherited?.[f.key as keyof GroupSysSettings];
        const preview = IMAGES.has(f.key) ? watched?.[f.key] || fromGroup : undefined;
        const follows = inherited && f.key in inherited;
        return (
          <Form.Item
            key={f.key}
            label={f.label}
            extra={follows ? [HELP[f.key], '留空则跟随集团设置'].filter(Boolean).join('；') : HELP[f.key]}
          >
            <Form.Item name={f.key} rules={rules} noStyle>
              {f.key === 'copyright' || f.key === 'address' ? (
                <Input.TextArea rows={2} data-testid={`setsys-${f.key}`} placeholder={fromGroup ? `跟随集团：${fromGroup}` : undefined} />
              ) : (
                <Input data-testid={`setsys-${f.key}`} allowClear placeholder={fromGroup ? `跟随集团：${fromGroup}` : undefined} />
              )}
            </Form.Item>
            {IMAGES.has(f.key) && (
              <div className="setsys-upload">
                <ImageUploadButton testId={`setsys-${f.key}-upload`} onUploaded={(url) => form.setFieldValue(f.key, url)} />
              </div>
            )}
            {preview && /^(https?:\/\/|\/)/.test(preview) && (
              <div className="setsys-image">
                <Image src={preview} height={80} data-testid={`setsys-${f.key}-preview`} />
              </div>
            )}
          </Form.Item>
        );
      })}
      <Button type="primary" loading={saving} onClick={() => void submit()} data-testid={`setsys-save-${tab.key}`}>
        保存{tab.title}
      </Button>
    </Form>
  );
}

/** /setup/setsys on the group side: the defaults every community follows where it sets nothing, and the security policy. */
function GroupSetsys() {
  const groupTitle = useSystem((s) => s.info?.region_title ?? '');
  const [values, setValues] = useState<GroupSysSettings | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    call('groupsysinfo')
      .then(setValues)
      .catch(() => setFailed(true));
  }, []);
  return (
    <Card title="系统设置（集团默认）" variant="borderless" data-testid="setsys-page">
      {failed && <Alert type="error" showIcon message="系统设置读取失败，请刷新重试" />}
      {!values && !failed && <Spin />}
      {values && (
        <>
          <Typography.Paragraph type="secondary">
            这里的品牌、客户端下载和帮助是各小区的默认值：小区未单独填写的项跟随集团，保存后即对这些小区生效；改了什么（原值 →
            新值）记入操作日志。
          </Typography.Paragraph>
          <Tabs
            items={[
              ...GROUP_SETSYS_TABS.map((tab) => ({
                key: tab.key,
                label: <span data-testid={`setsys-tab-${tab.key}`}>{tab.title}</span>,
                children: (
                  <TabForm
                    tab={tab}
                    values={values}
                    onSaved={setValues}
                    save={(v) => request('setgroupsysinfo', v)}
                    previewTitle={groupTitle}
                  />
                ),
              })),
              { key: 'security', label: <span data-testid="setsys-tab-security">安全</span>, children: <SecurityTab /> },
            ]}
          />
        </>
      )}
    </Card>
  );
}

/** /setup/setsys: the community's system settings in tabs; each tab saves its own fields. */
export default function Setsys() {
  const side = useUser((s) => s.side);
  const [values, setValues] = useState<SysSettings | null>(null);
  const [inherited, setInherited] = useState<GroupSysSettings | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (side === 'group') return;
    call('sysinfo')
      .then(setValues)
      .catch(() => setFailed(true));
    // the group's defaults only explain the empty fields: the page works without them
    call('groupsysinfo')
      .then(setInherited)
      .catch(() => undefined);
  }, [side]);

  if (side === 'group') return <GroupSetsys />;

  return (
    <Card title="系统设置" variant="borderless" data-testid="setsys-page">
      {failed && <Alert type="error" showIcon message="系统设置读取失败，请刷新重试" />}
      {!values && !failed && <Spin />}
      {values && (
        <>
          <Typography.Paragraph type="secondary">
            保存后立即生效，所有用户刷新或切换页面即可看到；每次保存改了什么（原值 → 新值）记入操作日志。
          </Typography.Paragraph>
          <Tabs
            items={[
              ...SETSYS_TABS.map((tab) => ({
                key: tab.key,
                label: <span data-testid={`setsys-tab-${tab.key}`}>{tab.title}</span>,
                children: (
                  <Space direction="vertical" style={{ width: '100%' }}>
                    <TabForm
                      tab={tab}
                      values={values}
                      onSaved={setValues}
                      save={(v) => request('setsysinfo', v)}
                      inherited={inherited}
                      previewTitle={values.title}
                    />
                  </Space>
                ),
              })),
              { key: 'security', label: <span data-testid="setsys-tab-security">安全</span>, children: <SecurityTab /> },
            ]}
          />
        </>
      )}
    </Card>
  );
}
