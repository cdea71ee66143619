import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, DatePicker, Form, Input, Radio, Row, Select, Space, Spin } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { CARE_CUSTOMER_KIND, CARE_GENDER, CARE_STATUS, careCustomer, type CareCustomerItem } from '@wuye/contract/crm/care';
import { enumOptions, type FieldDef } from '@wuye/contract/kit/resource';
import { call } from '../../../api/client';
import { RoomField, SmallSelect, useResourceForm, zodRule } from '../../../components/resource';
import { useTags } from '../../../stores/tags';
import { AttentionSelect, CareTagsInput } from './parts';

const LIST = '/crm/customerlist';
const fields = careCustomer.def.fields as Record<string, FieldDef>;
const CHOICES = new Set(['hid', 'member_id', 'kind', 'gender', 'birthday', 'move_in_date', 'steward_id', 'status']);
const DATES = new Set(['birthday', 'move_in_date']);

/** One field of the description: its label, help and the rules its zod makes. */
function Item({ name, children, span = 12 }: { name: string; children: ReactNode; span?: number }) {
  const f = fields[name]!;
  const date = DATES.has(name);
  return (
    <Col xs={24} md={span}>
      <Form.Item
        name={name}
        label={f.label}
        extra={f.help}
        rules={f.zod ? [zodRule(f.zod, f.label, CHOICES.has(name))] : undefined}
        {...(date
          ? {
              getValueProps: (v: unknown) => ({ value: typeof v === 'string' && v ? dayjs(v) : undefined }),
              normalize: (d: dayjs.Dayjs | null) => (d ? d.format('YYYY-MM-DD') : ''),
            }
          : {})}
      >
        {children}
      </Form.Item>
    </Col>
  );
}

/**
 * /crm/addcus and /crm/editcus?id= (新增/编辑关怀客户; docs/product.md#crm-care): from a resident
 * (the room, then the person: their name, mobile, gender, ID number, birthday, kind and move-in day
 * come in and the record links to them; a person recorded already says so) or someone outside the
 * directory by name and mobile; then the care: special attention, tags, steward, family, preferences.
 */
export default function CustomerForm() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const navigate = useNavigate();
  const [recorded, setRecorded] = useState<number | null>(null);
  const back = (to: string) => {
    useTags.getState().delView(id ? `/crm/editcus?id=${id}` : '/crm/addcus');
    void navigate(to);
  };
  const options = useMemo(
    () => ({ inPage: true, onSaved: (saved: number | undefined) => back(saved ? `/crm/customshow?id=${saved}` : LIST) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- back reads the id of this page
    [id],
  );
  const f = useResourceForm<CareCustomerItem>(careCustomer, options);
  const row = useQuery({
    queryKey: ['res', 'carecustomer', 'info', id],
    queryFn: () => call('careinfo', { id }),
    enabled: id > 0,
    retry: false,
  });
  const { open, form } = f;
  useEffect(() => {
    if (id === 0) open();
    else if (row.data) open(row.data);
  }, [id, row.data, open]);
  useEffect(() => {
    if (row.isError) void navigate(LIST, { replace: true });
  }, [row.isError, navigate]);
  const hid = Form.useWatch('hid', form) as number | undefined;
  const memberId = Form.useWatch('member_id', form) as number | undefined;

  // a resident chosen: their data fills the form (the fields stay editable)
  useEffect(() => {
    if (!memberId || id) {
      setRecorded(null);
      return;
    }
    let stale = false;
    void call('carememberinfo', { member_id: memberId }).then((p) => {
      if (stale) return;
      setRecorded(p.customer_id);
      form.setFieldsValue({
        realname: p.realname,
        mobile: p.mobile,
        gender: p.gender,
        id_card: p.id_card,
        kind: p.kind,
        ...(p.birthday ? { birthday: p.birthday } : {}),
        ...(p.move_in_date ? { move_in_date: p.move_in_date } : {}),
      });
    });
    return () => {
      stale = true;
    };
  }, [memberId, id, form]);

  if (id > 0 && !row.data) return <Spin />;
  const editing = id > 0;
  const linked = editing ? row.data?.member_id !== null : !!memberId;
  return (
    <Form {...f.formProps} data-testid="carecustomer-form">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        {editing ? (
          <Card variant="borderless" title={`编辑关怀客户：${row.data?.realname ?? ''}`} size="small">
            {linked
              ? `已关联住户，房屋：${row.data?.houses || '（已迁出）'}；房屋随住户的现住房屋更新`
              : `非住户客户${row.data?.houses ? `，房屋：${row.data.houses}` : ''}`}
          </Card>
        ) : (
          <Card variant="borderless" title="新增关怀客户" size="small">
            <Row gutter={16}>
              <Item name="hid">
                <RoomField testId="carecustomer-hid" />
              </Item>
              <Item name="member_id">
                <SmallSelect
                  widget={{ small: 'care_resident_small_list', dependsOn: { hid: 'hid' } }}
                  values={{ hid }}
                  placeholder="该房屋的在住住户"
                  allowClear
                  testId="carecustomer-member_id"
                />
              </Item>
            </Row>
            {recorded && (
              <Alert
                type="warning"
                showIcon
                title={
                  <>
                    该住户已建档，不能重复添加。<Link to={`/crm/customshow?id=${recorded}`}>查看档案</Link>
                  </>
                }
                data-testid="carecustomer-recorded"
              />
            )}
          </Card>
        )}
        <Card variant="borderless" title="基本资料" size="small">
          <Row gutter={16}>
            <Item name="realname">
              <Input maxLength={30} placeholder="住户建档时自动带入" data-testid="carecustomer-realname" />
            </Item>
            <Item name="kind">
              <Select options={enumOptions(CARE_CUSTOMER_KIND)} placeholder="请选择客户类型" data-testid="carecustomer-kind" />
            </Item>
            <Item name="mobile">
              <Input maxLength={11} placeholder="11 位手机号" data-testid="carecustomer-mobile" />
            </Item>
            <Item name="gender">
              <Radio.Group options={enumOptions(CARE_GENDER)} data-testid="carecustomer-gender" />
            </Item>
            <Item name="birthday">
              {/* typed (1952-10-03) more often than paged to: no read-only input here */}
              <DatePicker
                style={{ width: '100%' }}
                disabledDate={(d) => d.isAfter(dayjs())}
                placeholder="如 1952-10-03"
                data-testid="carecustomer-birthday"
              />
            </Item>
            <Item name="id_card">
              <Input maxLength={18} placeholder="18 位身份证号，可不填" data-testid="carecustomer-id_card" />
            </Item>
            <Item name="move_in_date">
              <DatePicker inputReadOnly style={{ width: '100%' }} data-testid="carecustomer-move_in_date" />
            </Item>
          </Row>
        </Card>
        <Card variant="borderless" title="关怀信息" size="small">
          <Row gutter={16}>
            <Item name="attention">
              <AttentionSelect data-testid="carecustomer-attention" />
            </Item>
            <Item name="tags">
              <CareTagsInput data-testid="carecustomer-tags" />
            </Item>
            <Item name="steward_id">
              <SmallSelect
                widget={{ small: 'care_staff_small_list' }}
                values={{}}
                placeholder="请选择负责管家"
                allowClear
                testId="carecustomer-steward_id"
              />
            </Item>
            <Item name="status">
              <Radio.Group options={enumOptions(CARE_STATUS)} data-testid="carecustomer-status" />
            </Item>
            <Item name="family_notes" span={24}>
              <Input.TextArea rows={2} maxLength={500} showCount data-testid="carecustomer-family_notes" />
            </Item>
            <Item name="preferences" span={24}>
              <Input.TextArea rows={2} maxLength={500} showCount data-testid="carecustomer-preferences" />
            </Item>
            <Item name="remark" span={24}>
              <Input.TextArea rows={2} maxLength={200} data-testid="carecustomer-remark" />
            </Item>
          </Row>
          <Space>
            <Button type="primary" loading={f.saving} disabled={!!recorded} onClick={() => void f.submit()} data-testid="carecustomer-save">
              保存
            </Button>
            <Button onClick={() => back(editing ? `/crm/customshow?id=${id}` : LIST)}>取消</Button>
          </Space>
        </Card>
      </Space>
    </Form>
  );
}
