import { useMemo, type CSSProperties } from 'react';
import { Button, Card, Empty, Form, Input, Modal, Select, Space, Spin, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { MemberItem } from '@wuye/contract';
import { TITLE_KIND, invoiceTitle, type InvoiceTitleRow } from '@wuye/contract/invoice/invoices';
import {
  EnumTag,
  ResourceFormItems,
  useCanWrite,
  useResourceDelete,
  useResourceForm,
  useResourceList,
  type Widgets,
} from '../../components/resource';

/**
 * 发票抬头 of one person (the invoicetitle resource narrowed to the member): the titles offered when
 * an invoice is issued for what they paid; added, edited and deleted here. Shown to the accounts
 * that may read titles (the invoice staff and the cashiers).
 */
export default function MemberTitles({ member }: { member: MemberItem }) {
  const canRead = useCanWrite(invoiceTitle.def.roles.read);
  return canRead ? <TitlesCard member={member} /> : null;
}

const ITEM: CSSProperties = {
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '4px 12px',
  padding: '6px 0',
  borderBottom: '1px solid rgba(5, 5, 5, 0.06)',
};

function TitlesCard({ member }: { member: MemberItem }) {
  const canWrite = useCanWrite(invoiceTitle.def.roles.write);
  const permanent = useMemo(() => ({ member_id: member.id }), [member.id]);
  const list = useResourceList<InvoiceTitleRow>(invoiceTitle, { permanent, syncUrl: false, pageSize: 50 });
  const rooms = useMemo(() => member.rooms.filter((r) => r.status === 'Y'), [member.rooms]);
  const form = useResourceForm<InvoiceTitleRow>(invoiceTitle, {
    defaults: () => ({ member_id: member.id, hid: rooms[0]?.hid }),
  });
  const remove = useResourceDelete(invoiceTitle);
  // the room is one of the person's, the owner the person: no cascader, no choice of someone else
  const widgets: Widgets = useMemo(() => {
    const RoomOfMember = ({ value, onChange, ...rest }: { value?: number; onChange?: (v: number) => void }) => (
      <Select
        {...rest}
        value={value}
        onChange={onChange}
        options={member.rooms.map((r) => ({ value: r.hid, label: r.address, disabled: r.status !== 'Y' && r.hid !== value }))}
      />
    );
    const TheMember = ({ value: _v, onChange: _c, ...rest }: { value?: number; onChange?: (v: number) => void }) => (
      <Input {...rest} value={`${member.realname} ${member.mobile}`} disabled />
    );
    return { hid: RoomOfMember, member_id: TheMember } as unknown as Widgets;
  }, [member]);

  return (
    <Card
      size="small"
      title="发票抬头"
      data-testid="member-titles"
      extra={
        canWrite && (
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => form.open()}
            disabled={rooms.length === 0}
            data-testid="invoicetitle-add"
          >
            新增抬头
          </Button>
        )
      }
    >
      {list.loading && list.items.length === 0 ? (
        <Spin size="small" />
      ) : list.items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无发票抬头" />
      ) : (
        list.items.map((t) => (
          <div key={t.id} style={ITEM} data-testid={`invoicetitle-row-${t.id}`}>
            <div style={{ minWidth: 0 }}>
              <Space size={4} wrap>
                <EnumTag enum={TITLE_KIND} value={t.kind} />
                <Typography.Text strong>{t.title}</Typography.Text>
                {t.is_default === 'Y' && <EnumTag enum={invoiceTitle.def.fields.is_default.enum!} value="Y" />}
              </Space>
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {[t.tax_no, t.address_phone, t.bank_account, t.email, t.mobile].filter(Boolean).join(' · ') || t.address}
                </Typography.Text>
              </div>
            </div>
            {canWrite && (
              <Space size={4}>
                <Button size="small" onClick={() => form.open(t)} data-testid={`invoicetitle-edit-${t.id}`}>
                  编辑
                </Button>
                <Button size="small" danger onClick={() => remove(t.id)} data-testid={`invoicetitle-del-${t.id}`}>
                  删除
                </Button>
              </Space>
            )}
          </div>
        ))
      )}
      <Modal {...form.modalProps} modalRender={(node) => <div data-testid="invoicetitle-form">{node}</div>}>
        <Form {...form.formProps}>
          <ResourceFormItems resource={invoiceTitle} form={form.form} widgets={widgets} editing={form.editing !== 'new'} />
        </Form>
      </Modal>
    </Card>
  );
}
