import { useMemo, useState } from 'react';
import { Avatar, Badge, Button, Input, Space, Tag, Typography } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { merchant, type MerchantItem } from '@wuye/contract/cards/merchants';
import { PhotosInput } from '../../components/PhotosInput';
import { ResourcePage, useCanWrite, useResourceForm, type ResourceFormOptions, type Widgets } from '../../components/resource';
import { MerchantServicesDrawer, ServiceRequestsDrawer, usePendingServices } from './MerchantServices';

type InputProps = { value?: string; onChange?: (v: string) => void; 'data-testid'?: string };

/** The store's logo: one uploaded image ('' none). */
function LogoInput({ value, onChange, 'data-testid': testId }: InputProps) {
  return <PhotosInput value={value ? [value] : []} onChange={(urls) => onChange?.(urls[0] ?? '')} max={1} testId={testId} />;
}

/** The logo, or the name's first character on a tile. */
const Logo = ({ row }: { row: MerchantItem }) => (
  <Avatar shape="square" size={40} src={row.logo || undefined} style={{ background: row.logo ? undefined : '#C9A45C' }}>
    {row.merchant.slice(0, 1)}
  </Avatar>
);

const formOptions: ResourceFormOptions = {
  // the number and the password are written only: the form starts them empty
  fromRow: (row) => ({ ...row, lng: row.lng ?? undefined, lat: row.lat ?? undefined, bank_account_no: '', login_password: '' }),
};

/**
 * /carpark/merchantlist (商户管理; docs/product.md#merchants): the stores around the community that
 * take members' points, balance and coupons: logo, kind, contact, hours, address and map point,
 * the settlement account (written only, shown masked), the merchant's login account (opened with a
 * username and a password; its password reset here; stopped with the store), and the other
 * communities it serves (服务小区), each decided by that community (服务申请). Managing them takes
 * `merchantset`; the card staff read them; a merchant account never sees the page.
 */
export default function MerchantList() {
  const form = useResourceForm(merchant, formOptions);
  const canWrite = useCanWrite(merchant.def.roles.write);
  const [services, setServices] = useState<MerchantItem | null>(null);
  const [requests, setRequests] = useState(false);
  const pending = usePendingServices(canWrite);
  const editing = form.editing && form.editing !== 'new' ? form.editing : null;

  // the written-only inputs say what is there now
  const widgets = useMemo(
    () =>
      ({
        logo: LogoInput,
        bank_account_no: (p: InputProps) => (
          <Input
            {...(p as object)}
            autoComplete="off"
            inputMode="numeric"
            placeholder={editing?.bank_account_mask ? `当前 ${editing.bank_account_mask}，留空不变` : '8到30位数字'}
          />
        ),
        login_username: (p: InputProps) =>
          editing?.login_username ? (
            <Space>
              <Input {...(p as object)} disabled style={{ width: 200 }} />
              <Tag color={editing.login_status === 'Y' ? 'success' : 'default'}>{editing.login_status === 'Y' ? '已开通' : '已停用'}</Tag>
            </Space>
          ) : (
            <Input {...(p as object)} autoComplete="off" placeholder="留空则不开通登录账号" />
          ),
        login_password: (p: InputProps) => (
          <Input.Password
            {...(p as object)}
            autoComplete="new-password"
            placeholder={editing?.login_username ? '留空不变；填写则重置密码' : '开通登录账号时必填，6到18位'}
          />
        ),
      }) as unknown as Widgets,
    [editing],
  );

  const columns = useMemo(
    () => ({
      merchant: {
        render: (v: string, r: MerchantItem) => (
          <Space>
            <Logo row={r} />
            <Space orientation="vertical" size={0}>
              <Typography.Text strong>{v}</Typography.Text>
              {r.address && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.address}
                </Typography.Text>
              )}
            </Space>
          </Space>
        ),
      },
      contact: {
        render: (v: string, r: MerchantItem) => (
          <Space orientation="vertical" size={0}>
            <span>{v || '—'}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.phone}
            </Typography.Text>
          </Space>
        ),
      },
      bank_account_mask: {
        render: (v: string, r: MerchantItem) =>
          v ? (
            <Space orientation="vertical" size={0}>
              <Typography.Text style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }} data-testid={`merchant-account-${r.id}`}>
                {v}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.bank_name}
              </Typography.Text>
            </Space>
          ) : (
            <Typography.Text type="secondary">未设置</Typography.Text>
          ),
      },
      login_username: {
        render: (v: string, r: MerchantItem) =>
          v ? (
            <Space size={4}>
              <span>{v}</span>
              {r.login_status === 'N' && <Tag>停用</Tag>}
            </Space>
          ) : (
            <Typography.Text type="secondary">未开通</Typography.Text>
          ),
      },
      services_text: { ellipsis: true },
    }),
    [],
  );

  return (
    <>
      <ResourcePage<MerchantItem>
        resource={merchant}
        title="商户管理"
        form={form}
        widgets={widgets}
        columns={columns}
        toolbar={
          <Badge count={pending} size="small">
            <Button icon={<AuditOutlined />} onClick={() => setRequests(true)} data-testid="merchant-requests-open">
              服务申请
            </Button>
          </Badge>
        }
        rowActions={(r) => (
          <Button size="small" onClick={() => setServices(r)} data-testid={`merchant-services-${r.id}`}>
            服务小区
          </Button>
        )}
      />
      <MerchantServicesDrawer row={services} onClose={() => setServices(null)} />
      <ServiceRequestsDrawer open={requests} onClose={() => setRequests(false)} />
    </>
  );
}
