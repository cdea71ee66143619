import { useEffect, useState } from 'react';
import { Button, DatePicker, Form, Input, Modal, Select, Space, Switch, Tag, type ButtonProps } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { genderOfIdCard, isValidIdCard, MOBILE_RE, RELATION_CH, RELATIONS, type MemberItem, type RelationCode } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { RoomCascader } from '../../components/resource';
import { validValues } from '../../utils/forms';
import MemberTitles from './MemberTitles';

interface RoomRow {
  path?: number[];
  relation: RelationCode;
  move_in_date?: Dayjs;
}
interface Values {
  realname: string;
  mobile: string;
  id_card?: string;
  gender: '' | 'M' | 'F';
  wx: boolean;
  app: boolean;
  remark?: string;
  rooms: RoomRow[];
}

/** Add or edit a person with rooms (memberadd / memberedit); rooms already lived in are shown as tags. */
export default function MemberForm({
  member,
  open,
  onClose,
  onSaved,
}: {
  member: MemberItem | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (member) {
      form.setFieldsValue({
        realname: member.realname,
        mobile: member.mobile,
        id_card: member.id_card,
        gender: member.gender,
        wx: member.wx_isbind === 'Y',
        app: member.app_isbind === 'Y',
        remark: member.remark,
        rooms: [],
      });
    }
  }, [open, member, form]);

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const rooms = (v.rooms ?? [])
      .filter((r) => r.path?.length === 3)
      .map((r) => ({
        hid: r.path![2]!,
        relation: r.relation,
        move_in_date: r.move_in_date ? r.move_in_date.format('YYYY-MM-DD') : '',
      }));
    const person = {
      realname: v.realname,
      mobile: v.mobile,
      id_card: v.id_card ?? '',
      gender: v.gender ?? '',
      wx_isbind: v.wx ? 'Y' : 'N',
      app_isbind: v.app ? 'Y' : 'N',
      remark: v.remark ?? '',
      rooms,
    } as const;
    setSaving(true);
    try {
      const res = member ? await request('memberedit', { id: member.id, ...person }) : await request('memberadd', person);
      noticeSuccess(res.return_msg);
      onSaved();
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  // a gender not chosen yet is the one the ID number records
  const fillGender = (idCard: string) => {
    const gender = genderOfIdCard(idCard.trim().toUpperCase());
    if (gender && !form.getFieldValue('gender')) form.setFieldValue('gender', gender);
  };

  return (
    <Modal
      title={member ? '编辑住户' : '新增住户'}
      open={open}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'member-form-save' } as ButtonProps}
      width={720}
      destroyOnHidden
      modalRender={(node) => <div data-testid="member-form">{node}</div>}
    >
      <Form<Values>
        form={form}
        layout="horizontal"
        labelCol={{ span: 4 }}
        initialValues={{ gender: '', wx: false, app: false, rooms: member ? [] : [{ relation: 'owner' }] }}
      >
        <Form.Item name="realname" label="姓名" rules={[{ required: true, message: '请输入姓名' }, { max: 30 }]}>
          <Input data-testid="member-realname" />
        </Form.Item>
        <Form.Item
          name="mobile"
          label="手机号"
          rules={[
            { required: true, message: '请输入手机号' },
            {
              // a masked number shown to an account without CONTACT_WHOLE may go back unchanged (docs/product.md#contact-masking)
              validator: async (_, v: string | undefined) => {
                if (v && v !== member?.mobile && !MOBILE_RE.test(v)) throw new Error('手机号码格式不正确，应为11位手机号');
              },
            },
          ]}
        >
          <Input maxLength={11} data-testid="member-mobile" />
        </Form.Item>
        <Form.Item
          name="id_card"
          label="身份证号"
          rules={[
            {
              validator: async (_, v: string | undefined) => {
                if (v && v !== member?.id_card && !isValidIdCard(v)) throw new Error('身份证号码不正确');
              },
            },
          ]}
        >
          <Input maxLength={18} data-testid="member-idcard" onChange={(e) => fillGender(e.target.value)} />
        </Form.Item>
        <Form.Item name="gender" label="性别">
          <Select
            options={[
              { value: '', label: '未知' },
              { value: 'M', label: '男' },
              { value: 'F', label: '女' },
            ]}
            style={{ width: 120 }}
          />
        </Form.Item>
        <Form.Item label="绑定">
          <Space>
            <Form.Item name="wx" valuePropName="checked" noStyle>
              <Switch checkedChildren="微信" unCheckedChildren="微信" />
            </Form.Item>
            <Form.Item name="app" valuePropName="checked" noStyle>
              <Switch checkedChildren="APP" unCheckedChildren="APP" />
            </Form.Item>
          </Space>
        </Form.Item>
        {member && (
          <Form.Item label="在住房屋">
            <Space wrap>
              {member.rooms
                .filter((r) => r.status === 'Y')
                .map((r) => (
                  <Tag key={r.id}>
                    {r.address}（{r.relation_ch}）
                  </Tag>
                ))}
            </Space>
          </Form.Item>
        )}
        <Form.List name="rooms">
          {(fields, { add, remove }) => (
            <Form.Item label={member ? '添加房屋' : '房屋'} required={!member}>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" wrap>
                  <Form.Item name={[f.name, 'path']} rules={[{ required: true, message: '请选择房屋' }]}>
                    <RoomCascader testId="member-room" />
                  </Form.Item>
                  <Form.Item name={[f.name, 'relation']} rules={[{ required: true }]}>
                    <Select
                      style={{ width: 100 }}
                      options={RELATIONS.map((r) => ({ value: r, label: RELATION_CH[r] }))}
                      data-testid="member-relation"
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'move_in_date']}>
                    <DatePicker placeholder="入住日期" inputReadOnly />
                  </Form.Item>
                  {(member || fields.length > 1) && <MinusCircleOutlined onClick={() => remove(f.name)} />}
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ relation: 'owner' })} data-testid="member-add-room">
                添加房屋
              </Button>
            </Form.Item>
          )}
        </Form.List>
        <Form.Item name="remark" label="备注">
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
      {/* the person's invoice titles (issue 41): saved apart from the form above, at once */}
      {member && <MemberTitles member={member} />}
    </Modal>
  );
}
