import { useState } from 'react';
import { App, Button, Descriptions, Drawer, Form, Input, Modal, Radio, Select, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { STAFF_STATUS, STAFF_TYPE, type StaffImportResult, type StaffRow } from '@wuye/contract/team/staff';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { EnumTag, useSmallList } from '../../components/resource';
import { usePermission } from '../../components/Permission';
import { useUser } from '../../stores/user';
import ImportDialog from '../../components/ImportDialog';
import { DepartmentSelect } from './DepartmentSelect';

/** staffimport: the template, one first password for every row, the job, then the result or the rows to fix. */
function StaffImport({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ password: string }>();
  return (
    <ImportDialog<StaffImportResult>
      open={open}
      onClose={onClose}
      onDone={onDone}
      title="导入员工"
      testId="staff-import"
      methods={{ template: 'staffimporttemplate', upload: 'staffimport', errors: 'staffimporterrors' }}
      hint="导入到当前小区；角色写名称，多个用顿号分隔；任何一行有错误时整个文件都不导入。"
      success={(r) => `导入成功：新增员工 ${r.created} 人，首次登录须修改初始密码`}
      form={form}
    >
      <Form form={form} layout="inline">
        <Form.Item
          name="password"
          label="初始密码"
          extra="所有导入的账号使用此密码，首次登录须修改"
          rules={[
            { required: true, message: '请输入初始密码' },
            { min: 6, max: 18, message: '密码长度为6到18位' },
          ]}
        >
          <Input.Password autoComplete="new-password" style={{ width: 220 }} data-testid="staff-import-password" />
        </Form.Item>
      </Form>
    </ImportDialog>
  );
}

interface Filters {
  keyword?: string;
  dept_id?: number;
  role_id?: number;
  rid?: number;
  status?: 'Y' | 'N';
}

interface Assignment {
  rid?: number;
  role_ids: number[];
}

interface StaffForm {
  username: string;
  name: string;
  mobile: string;
  dept_id?: number | null;
  position_id?: number | null;
  sys_type: 'property' | 'merchant';
  password?: string;
  assignments: Assignment[];
}

/** The communities an assignment may name: the current one on the community side, the group's on the group side. */
function useCommunities(): Array<{ value: number; label: string }> {
  const side = useUser((s) => s.side);
  const current = useUser((s) => s.sysUser);
  const group = useQuery({
    queryKey: ['leaderregionlist', 'all'],
    queryFn: () => call('leaderregionlist', { limit: 200 }),
    enabled: side === 'group',
  });
  if (side === 'group') return (group.data?.items ?? []).map((r) => ({ value: r.id, label: r.title }));
  return current ? [{ value: current.rid, label: '当前小区' }] : [];
}

/** Add or edit: the account, and per community the roles it holds there. */
function StaffModal({
  staff,
  onClose,
  onSaved,
}: {
  staff?: StaffRow;
  onClose: () => void;
  onSaved: (password?: string, name?: string) => void;
}) {
  const [form] = Form.useForm<StaffForm>();
  const side = useUser((s) => s.side);
  const communities = useCommunities();
  const roles = useSmallList('role_small_list', { app: 'web' }).items.filter((r) => r.status === 'Y');
  const mobileRoles = useSmallList('role_small_list', { app: 'mobile' }).items.filter((r) => r.status === 'Y');
  const roleOptions = [
    { label: '后台角色', options: roles.map((r) => ({ value: r.id, label: r.title })) },
    { label: '手机端角色', options: mobileRoles.map((r) => ({ value: r.id, label: r.title })) },
  ];
  const positions = useSmallList('position_small_list', {}).options;
  const [saving, setSaving] = useState(false);
  const initial: StaffForm = staff
    ? {
        username: staff.username,
        name: staff.name,
        mobile: staff.mobile,
        dept_id: staff.dept_id,
        position_id: staff.position_id,
        sys_type: staff.sys_type,
        assignments: staff.regions.map((r) => ({ rid: r.rid, role_ids: r.roles.map((x) => x.id) })),
      }
    : { username: '', name: '', mobile: '', sys_type: 'property', assignments: [{ rid: communities[0]?.value, role_ids: [] }] };
  if (side === 'community' && initial.assignments.length === 0) initial.assignments = [{ rid: communities[0]?.value, role_ids: [] }];

  const save = async () => {
    const v = await form.validateFields();
    const current = communities[0]?.value;
    const assignments = v.assignments.map((a) => ({ rid: a.rid ?? current!, role_ids: a.role_ids }));
    const placement = { dept_id: v.dept_id ?? undefined, position_id: v.position_id ?? undefined };
    setSaving(true);
    try {
      if (staff) {
        const answer = await request('staffedit', {
          id: staff.id,
          name: v.name,
          mobile: v.mobile,
          ...placement,
          sys_type: v.sys_type,
          assignments,
        });
        noticeSuccess(answer.return_msg);
        onSaved();
      } else {
        const answer = await request('staffadd', { ...v, ...placement, password: v.password ?? '', assignments });
        onSaved(answer.data.password || undefined, `${v.name}（${v.username}）`);
        if (!answer.data.password) noticeSuccess(answer.return_msg);
      }
    } catch {
      // the client showed why
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={640}
      title={staff ? `编辑员工 · ${staff.name}` : '新增员工'}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'staff-save' } as never}
    >
      <Form form={form} layout="vertical" initialValues={initial} data-testid="staff-form">
        <Space wrap size={16} style={{ width: '100%' }}>
          <Form.Item
            name="username"
            label="账号"
            rules={[
              { required: true, message: '请输入账号' },
              { pattern: /^[A-Za-z0-9_]{4,30}$/, message: '账号为4到30位字母、数字或下划线' },
            ]}
          >
            <Input disabled={!!staff} style={{ width: 180 }} data-testid="staff-username" />
          </Form.Item>
          <Form.Item
            name="name"
            label="姓名"
            rules={[
              { required: true, whitespace: true, message: '请输入姓名' },
              { min: 2, max: 10, message: '姓名为2到10个字' },
            ]}
          >
            <Input style={{ width: 140 }} data-testid="staff-name" />
          </Form.Item>
          <Form.Item name="mobile" label="手机" rules={[{ pattern: /^1[3-9]\d{9}$/, message: '手机号码格式不正确，应为11位手机号' }]}>
            <Input style={{ width: 150 }} data-testid="staff-mobile" />
          </Form.Item>
        </Space>
        <Space wrap size={16} style={{ width: '100%' }}>
          <Form.Item name="dept_id" label="部门">
            <DepartmentSelect placeholder="选择部门" style={{ width: 220 }} data-testid="staff-dept" />
          </Form.Item>
          <Form.Item name="position_id" label="岗位">
            <Select allowClear style={{ width: 160 }} placeholder="选择岗位" options={positions} data-testid="staff-position" />
          </Form.Item>
        </Space>
        <Form.Item name="sys_type" label="账号类型">
          <Radio.Group options={enumOptions(STAFF_TYPE)} />
        </Form.Item>
        {!staff && (
          <Form.Item
            name="password"
            label="初始密码"
            extra="不填则生成临时密码，只显示一次；首次登录须修改密码"
            rules={[{ min: 6, max: 18, message: '密码长度为6到18位' }]}
          >
            <Input.Password autoComplete="new-password" style={{ width: 220 }} data-testid="staff-password" />
          </Form.Item>
        )}
        <Form.List name="assignments">
          {(fields, { add, remove }) => (
            <>
              <div style={{ marginBottom: 8 }}>{side === 'group' ? '所在小区及角色' : '在本小区的角色'}</div>
              {fields.map((field) => (
                <Space key={field.key} align="start" wrap style={{ width: '100%' }}>
                  {side === 'group' && (
                    <Form.Item name={[field.name, 'rid']} rules={[{ required: true, message: '请选择小区' }]}>
                      <Select style={{ width: 160 }} placeholder="小区" options={communities} data-testid={`staff-rid-${field.name}`} />
                    </Form.Item>
                  )}
                  <Form.Item
                    name={[field.name, 'role_ids']}
                    rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一个角色' }]}
                  >
                    <Select
                      mode="multiple"
                      style={{ width: side === 'group' ? 320 : 480, maxWidth: '100%' }}
                      placeholder="角色"
                      options={roleOptions}
                      optionFilterProp="label"
                      data-testid={`staff-roles-${field.name}`}
                    />
                  </Form.Item>
                  {side === 'group' && fields.length > 1 && (
                    <Button icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label="移除该小区" />
                  )}
                </Space>
              ))}
              {side === 'group' && (
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ role_ids: [] })} data-testid="staff-add-region">
                  添加小区
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** Which pages and actions the account has in each of its communities, and through which role. */
function AccessDrawer({ staff, onClose }: { staff: StaffRow; onClose: () => void }) {
  const access = useQuery({ queryKey: ['staffaccess', staff.id], queryFn: () => call('staffaccess', { id: staff.id }) });
  return (
    <Drawer open width={Math.min(560, window.innerWidth)} title={`${staff.name} 的实际权限`} onClose={onClose} data-testid="staff-access">
      {(access.data?.regions ?? []).map((r) => (
        <Descriptions
          key={r.rid}
          title={r.all ? `${r.title}（管理员：全部页面与操作）` : r.title}
          column={1}
          size="small"
          bordered
          style={{ marginBottom: 16 }}
        >
          {r.pages.map((p) => (
            <Descriptions.Item key={p.code} label={p.title}>
              {p.via.map((v) => (
                <Tag key={v}>{v}</Tag>
              ))}
            </Descriptions.Item>
          ))}
        </Descriptions>
      ))}
    </Drawer>
  );
}

/**
 * Staff accounts (/team/user, 员工管理): who works here, with which roles; add, edit, disable and
 * enable, reset the password, see what an account may do (docs/product.md#team).
 */
export default function StaffList() {
  const { modal } = App.useApp();
  const side = useUser((s) => s.side);
  const can = usePermission();
  // a community's staff are a score or so: one page holds them, in the order they joined
  const list = useList('stafflist', { sort: 'asc' }, { limit: 20 });
  const roles = useSmallList('role_small_list', { app: 'web' }).items;
  const communities = useCommunities();
  const actionFixed = useActionFixed();
  const [editing, setEditing] = useState<StaffRow | 'new'>();
  const [importing, setImporting] = useState(false);
  const [viewing, setViewing] = useState<StaffRow>();
  const [shown, setShown] = useState<{ title: string; password: string }>();

  const setStatus = (r: StaffRow, status: 'Y' | 'N') =>
    modal.confirm({
      title: status === 'N' ? '停用账号' : '启用账号',
      content: status === 'N' ? `停用后 ${r.name} 立即退出登录且不能再登录。是否继续？` : `启用后 ${r.name} 可以重新登录。是否继续？`,
      okButtonProps: { danger: status === 'N', 'data-testid': 'staff-status-ok' } as never,
      onOk: async () => {
        const answer = await request(status === 'N' ? 'staffdisable' : 'staffenable', { id: r.id });
        noticeSuccess(answer.return_msg);
        list.reload();
      },
    });
  const resetPassword = (r: StaffRow) =>
    modal.confirm({
      title: '重置密码',
      content: `将为 ${r.name}（${r.username}）生成临时密码，并结束其所有登录。是否继续？`,
      okButtonProps: { 'data-testid': 'staff-reset-ok' } as never,
      onOk: async () => {
        const answer = await request('staffresetpassword', { id: r.id });
        setShown({ title: `${r.name}（${r.username}）的临时密码`, password: answer.data.password });
      },
    });

  const columns: TableColumnsType<StaffRow> = [
    { title: '账号', dataIndex: 'username', width: 120, fixed: 'left' },
    { title: '姓名', dataIndex: 'name', width: 100 },
    { title: '手机', dataIndex: 'mobile', width: 120 },
    { title: '部门', dataIndex: 'dept_title', width: 110 },
    { title: '岗位', dataIndex: 'position_title', width: 100 },
    {
      title: side === 'group' ? '所在小区及角色' : '角色',
      key: 'roles',
      width: 280,
      render: (_, r) => (
        <Space size={[4, 4]} wrap>
          {r.regions.flatMap((g) =>
            g.roles.map((x) => (
              <Tag key={`${g.rid}-${x.id}`} color="blue">
                {side === 'group' ? `${g.title}：${x.title}` : x.title}
              </Tag>
            )),
          )}
          {r.direct_codes.length > 0 && (
            <Tag title={r.direct_codes.map((c) => c.title).join('、')}>直接授予 {r.direct_codes.length} 项</Tag>
          )}
        </Space>
      ),
    },
    { title: '类型', dataIndex: 'sys_type_ch', width: 70 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 130,
      render: (s: 'Y' | 'N', r) => (
        <Space size={4}>
          <EnumTag enum={STAFF_STATUS} value={s} />
          {r.password_status === 'N' && <Tag color="warning">待改密</Tag>}
        </Space>
      ),
    },
    { title: '最近登录', dataIndex: 'last_login_at', width: 170 },
    { title: '创建时间', dataIndex: 'created_at', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 250,
      fixed: actionFixed,
      render: (_, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setEditing(r)} data-testid={`staff-edit-${r.id}`}>
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => setViewing(r)} data-testid={`staff-access-${r.id}`}>
            权限
          </Button>
          {side === 'community' && can(['admin']) && (
            <Button type="link" size="small" onClick={() => resetPassword(r)} data-testid={`staff-reset-${r.id}`}>
              重置密码
            </Button>
          )}
          {r.status === 'Y' ? (
            <Button type="link" size="small" danger onClick={() => setStatus(r, 'N')} data-testid={`staff-disable-${r.id}`}>
              停用
            </Button>
          ) : (
            <Button type="link" size="small" onClick={() => setStatus(r, 'Y')} data-testid={`staff-enable-${r.id}`}>
              启用
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <TablePage<StaffRow, Filters>
        testId="stafflist-page"
        title="员工管理"
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) =>
          list.setFilters({
            sort: 'asc',
            keyword: v.keyword || undefined,
            dept_id: v.dept_id,
            role_id: v.role_id,
            rid: v.rid,
            status: v.status,
          })
        }
        onExport={
          side === 'community'
            ? (v) => runExport('staffexport', { keyword: v.keyword || undefined, dept_id: v.dept_id, role_id: v.role_id, status: v.status })
            : undefined
        }
        filters={
          <>
            <Form.Item name="keyword" label="关键字">
              <Input allowClear placeholder="姓名、手机或账号" style={{ width: 180 }} data-testid="staff-filter-keyword" />
            </Form.Item>
            <Form.Item name="dept_id" label="部门">
              <DepartmentSelect placeholder="全部" style={{ width: 160 }} data-testid="staff-filter-dept" />
            </Form.Item>
            <Form.Item name="role_id" label="角色">
              <Select
                allowClear
                style={{ width: 140 }}
                options={roles.map((r) => ({ value: r.id, label: r.title }))}
                data-testid="staff-filter-role"
              />
            </Form.Item>
            {side === 'group' && (
              <Form.Item name="rid" label="小区">
                <Select allowClear style={{ width: 140 }} options={communities} />
              </Form.Item>
            )}
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 100 }} options={enumOptions(STAFF_STATUS)} data-testid="staff-filter-status" />
            </Form.Item>
          </>
        }
        toolbar={
          <Space wrap>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="staff-add">
              新增员工
            </Button>
            {side === 'community' && (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="staff-import-open">
                导入
              </Button>
            )}
          </Space>
        }
      />
      <StaffImport open={importing} onClose={() => setImporting(false)} onDone={list.reload} />
      {editing && (
        <StaffModal
          staff={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={(password, who) => {
            setEditing(undefined);
            list.reload();
            if (password && who) setShown({ title: `${who}的临时密码`, password });
          }}
        />
      )}
      {viewing && <AccessDrawer staff={viewing} onClose={() => setViewing(undefined)} />}
      <Modal
        open={!!shown}
        title={shown?.title}
        onOk={() => setShown(undefined)}
        onCancel={() => setShown(undefined)}
        cancelButtonProps={{ hidden: true }}
        okText="我已记下"
      >
        <p>临时密码只显示这一次，请告知本人，登录后须立即修改：</p>
        <Typography.Paragraph
          copyable={{ text: shown?.password }}
          style={{ fontSize: 20, fontFamily: 'monospace' }}
          data-testid="staff-temp-password"
        >
          {shown?.password}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
