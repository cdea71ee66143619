import { useEffect, useMemo, useState } from 'react';
import { App, Button, Drawer, Form, Input, List, Modal, Radio, Select, Space, Tabs, Tag, Tooltip, Tree } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ROLE_SCOPE, ROLE_STATUS, type RoleRow, type RoleScope } from '@wuye/contract/team/staff';
import { permissionTitle, type RoleApp } from '@wuye/contract/team/permissions';
import { enumOptions } from '@wuye/contract/kit/resource';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { useList } from '../../api/useList';
import TablePage, { useActionFixed } from '../../components/TablePage';
import { EnumTag, invalidateResource, useSmallList } from '../../components/resource';
import { useConfirmDelete } from '../../components/useConfirmDelete';
import { useUser } from '../../stores/user';
import { filterTree, toggleCode, toTreeNodes, treeChecks } from './permissionTree';

interface Filters {
  keyword?: string;
  status?: 'Y' | 'N';
}

interface Draft {
  id?: number;
  title: string;
  remark: string;
  scope: RoleScope;
  status: 'Y' | 'N';
  codes: string[];
  /** accounts the saved change reaches */
  members: number;
}

/** The permission tree of one app, with search and tri-state areas (docs/product.md#team). */
function PermissionTree({ app, codes, onChange }: { app: RoleApp; codes: string[]; onChange: (codes: string[]) => void }) {
  const [word, setWord] = useState('');
  const tree = useQuery({ queryKey: ['permissiontree', app], queryFn: () => call('permissiontree', { app }), staleTime: Infinity });
  const nodes = useMemo(() => toTreeNodes(tree.data?.items ?? []), [tree.data]);
  const shown = useMemo(() => filterTree(nodes, word.trim()), [nodes, word]);
  const checks = treeChecks(nodes, codes);
  return (
    <div data-testid="role-tree">
      <Input.Search
        allowClear
        placeholder="搜索权限"
        onChange={(e) => setWord(e.target.value)}
        style={{ marginBottom: 8 }}
        data-testid="role-tree-search"
      />
      <Tree
        checkable
        checkStrictly
        defaultExpandAll
        key={`${shown.length}-${word}`}
        treeData={shown}
        checkedKeys={checks}
        onCheck={(_, info) => onChange(toggleCode(nodes, codes, String(info.node.key), info.checked))}
        titleRender={(n) => <span data-testid={`role-tree-${String(n.key)}`}>{n.title as string}</span>}
      />
      <div style={{ color: 'rgba(0,0,0,0.45)', marginTop: 8 }}>勾选操作时自动包含其所在页面；取消页面时一并取消其操作。</div>
    </div>
  );
}

/** The role form: name, note, status and the tree; before saving a role that accounts hold, how many it reaches. */
function RoleForm({ app, draft, onClose, onSaved }: { app: RoleApp; draft: Draft; onClose: () => void; onSaved: () => void }) {
  const { modal } = App.useApp();
  const [form] = Form.useForm<Omit<Draft, 'codes' | 'members' | 'id'>>();
  const [codes, setCodes] = useState(draft.codes);
  const [saving, setSaving] = useState(false);
  const groupSide = useUser((u) => u.side) === 'group';
  const save = async () => {
    const values = await form.validateFields();
    const run = async () => {
      setSaving(true);
      try {
        const payload = { ...values, app, codes };
        const answer = draft.id ? await request('roleedit', { id: draft.id, ...payload }) : await request('roleadd', payload);
        noticeSuccess(answer.return_msg);
        onSaved();
      } catch {
        // the client showed why
      } finally {
        setSaving(false);
      }
    };
    if (draft.id && draft.members > 0)
      modal.confirm({
        title: '保存角色',
        content: `${draft.members} 个账号持有该角色，保存后其权限立即按新的设置生效。是否继续？`,
        okButtonProps: { 'data-testid': 'role-save-confirm' } as never,
        onOk: run,
      });
    else await run();
  };
  return (
    <Drawer
      open
      width={Math.min(560, window.innerWidth)}
      title={draft.id ? `编辑角色 · ${draft.title}` : '新增角色'}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="role-save">
            保存
          </Button>
        </Space>
      }
      data-testid="role-form"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ title: draft.title, remark: draft.remark, status: draft.status, scope: draft.scope }}
      >
        <Form.Item name="title" label="角色名称" rules={[{ required: true, whitespace: true, message: '请输入角色名称' }, { max: 30 }]}>
          <Input maxLength={30} data-testid="role-title" />
        </Form.Item>
        <Form.Item name="remark" label="说明" rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} maxLength={200} data-testid="role-remark" />
        </Form.Item>
        <Form.Item
          name="scope"
          label="数据范围"
          extra={groupSide ? '集团全部小区：持有者在集团每个小区都有此角色，可切换进入' : '集团全部小区的角色只能由集团管理员设置'}
        >
          <Radio.Group disabled={!groupSide} options={enumOptions(ROLE_SCOPE)} optionType="button" data-testid="role-scope" />
        </Form.Item>
        <Form.Item name="status" label="状态">
          <Radio.Group options={enumOptions(ROLE_STATUS)} />
        </Form.Item>
        <Form.Item label={`权限（已选 ${codes.length} 项）`} required>
          <PermissionTree app={app} codes={codes} onChange={setCodes} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** The accounts holding a role, and where. */
function Members({ role, onClose }: { role: RoleRow; onClose: () => void }) {
  const info = useQuery({ queryKey: ['roleinfo', role.id], queryFn: () => call('roleinfo', { id: role.id }) });
  return (
    <Drawer
      open
      width={Math.min(480, window.innerWidth)}
      title={`持有「${role.title}」的账号`}
      onClose={onClose}
      data-testid="role-members"
    >
      <List
        loading={info.isLoading}
        dataSource={info.data?.members ?? []}
        locale={{ emptyText: '暂无账号持有该角色' }}
        renderItem={(m) => (
          <List.Item>
            <List.Item.Meta title={`${m.name}（${m.username}）`} description={m.regions.join('、')} />
          </List.Item>
        )}
      />
    </Drawer>
  );
}

/** Deleting a role still held asks for the role its holders get instead. */
function DeleteHeld({ role, app, onClose, onDone }: { role: RoleRow; app: RoleApp; onClose: () => void; onDone: () => void }) {
  const [replacement, setReplacement] = useState<number>();
  const roles = useSmallList('role_small_list', { app });
  return (
    <Modal
      open
      title={`删除角色「${role.title}」`}
      okText="删除并替换"
      okButtonProps={{ danger: true, disabled: !replacement, 'data-testid': 'role-del-replace-ok' } as never}
      onCancel={onClose}
      onOk={async () => {
        const answer = await request('roledel', { id: role.id, replacement_id: replacement });
        noticeSuccess(answer.return_msg);
        onDone();
      }}
    >
      <p>{role.member_count} 个账号持有该角色。删除后，这些账号改为持有：</p>
      <Select
        style={{ width: '100%' }}
        placeholder="选择替代角色"
        value={replacement}
        onChange={setReplacement}
        options={roles.items.filter((r) => r.id !== role.id).map((r) => ({ value: r.id, label: r.title }))}
        data-testid="role-del-replacement"
      />
    </Modal>
  );
}

function RoleTable({ app }: { app: RoleApp }) {
  // a company's roles are a score or so: one page holds them, the built-in ones first
  const list = useList('rolelist', { sort: 'asc', app }, { limit: 20 });
  const queryClient = useQueryClient();
  const actionFixed = useActionFixed();
  const confirmDelete = useConfirmDelete();
  const [draft, setDraft] = useState<Draft>();
  const [members, setMembers] = useState<RoleRow>();
  const [deleting, setDeleting] = useState<RoleRow>();
  const reload = () => {
    list.reload();
    void invalidateResource(queryClient, 'role');
  };
  useEffect(() => setDraft(undefined), [app]);

  const columns: TableColumnsType<RoleRow> = [
    {
      title: '角色名称',
      dataIndex: 'title',
      width: 150,
      render: (title: string, r) => (
        <Space size={4}>
          {title}
          {r.builtin && <Tag>内置</Tag>}
        </Space>
      ),
    },
    {
      title: '数据范围',
      dataIndex: 'scope',
      width: 120,
      render: (_: unknown, r) => <EnumTag enum={ROLE_SCOPE} value={r.scope} />,
    },
    { title: '说明', dataIndex: 'remark', width: 200, ellipsis: true },
    {
      title: '权限',
      dataIndex: 'codes',
      width: 300,
      render: (codes: string[]) => (
        <Tooltip title={codes.map(permissionTitle).join('、')}>
          <span>
            {codes
              .slice(0, 4)
              .map((c) => permissionTitle(c))
              .join('、')}
            {codes.length > 4 ? ` 等 ${codes.length} 项` : ''}
          </span>
        </Tooltip>
      ),
    },
    { title: '账号数', dataIndex: 'member_count', width: 80, align: 'right' },
    { title: '状态', dataIndex: 'status', width: 80, render: (s: 'Y' | 'N') => <EnumTag enum={ROLE_STATUS} value={s} /> },
    { title: '更新时间', dataIndex: 'updated_at', width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 230,
      fixed: actionFixed,
      render: (_, r) => {
        const locked = r.codes.includes('admin');
        return (
          <Space size={0} wrap>
            <Button
              type="link"
              size="small"
              disabled={locked}
              onClick={() =>
                setDraft({
                  id: r.id,
                  title: r.title,
                  remark: r.remark,
                  scope: r.scope,
                  status: r.status,
                  codes: r.codes,
                  members: r.member_count,
                })
              }
              data-testid={`role-edit-${r.id}`}
            >
              编辑
            </Button>
            <Button
              type="link"
              size="small"
              disabled={locked}
              onClick={() =>
                setDraft({ title: `${r.title}副本`.slice(0, 30), remark: r.remark, scope: 'own', status: 'Y', codes: r.codes, members: 0 })
              }
              data-testid={`role-copy-${r.id}`}
            >
              复制
            </Button>
            <Button type="link" size="small" onClick={() => setMembers(r)} data-testid={`role-members-${r.id}`}>
              成员
            </Button>
            {!r.builtin && (
              <Button
                type="link"
                size="small"
                danger
                onClick={() =>
                  r.member_count > 0
                    ? setDeleting(r)
                    : confirmDelete(async () => {
                        const answer = await request('roledel', { id: r.id });
                        noticeSuccess(answer.return_msg);
                        reload();
                      })
                }
                data-testid={`role-del-${r.id}`}
              >
                删除
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <TablePage<RoleRow, Filters>
        testId={`rolelist-${app}`}
        list={list}
        columns={columns}
        rowKey="id"
        onSearch={(v) => list.setFilters({ sort: 'asc', app, keyword: v.keyword || undefined, status: v.status })}
        filters={
          <>
            <Form.Item name="keyword" label="角色名称">
              <Input allowClear style={{ width: 160 }} data-testid="role-filter-keyword" />
            </Form.Item>
            <Form.Item name="status" label="状态">
              <Select allowClear style={{ width: 100 }} options={enumOptions(ROLE_STATUS)} />
            </Form.Item>
          </>
        }
        toolbar={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDraft({ title: '', remark: '', scope: 'own', status: 'Y', codes: [], members: 0 })}
            data-testid="role-add"
          >
            新增角色
          </Button>
        }
      />
      {draft && (
        <RoleForm
          key={draft.id ?? 'new'}
          app={app}
          draft={draft}
          onClose={() => setDraft(undefined)}
          onSaved={() => {
            setDraft(undefined);
            reload();
          }}
        />
      )}
      {members && <Members role={members} onClose={() => setMembers(undefined)} />}
      {deleting && (
        <DeleteHeld
          role={deleting}
          app={app}
          onClose={() => setDeleting(undefined)}
          onDone={() => {
            setDeleting(undefined);
            reload();
          }}
        />
      )}
    </>
  );
}

/**
 * Roles (/team/userrole, 角色权限): the company's roles of the console and of the staff app, each a
 * set of pages and actions chosen on a tree; built-in roles are kept, a held role is deleted only
 * with a replacement (docs/product.md#team).
 */
export default function UserRole({ app: only }: { app?: RoleApp }) {
  const [app, setApp] = useState<RoleApp>(only ?? 'web');
  if (only) return <RoleTable app={only} />;
  return (
    <Tabs
      activeKey={app}
      onChange={(k) => setApp(k as RoleApp)}
      items={[
        { key: 'web', label: '后台角色', children: app === 'web' ? <RoleTable app="web" /> : null },
        { key: 'mobile', label: '手机端角色', children: app === 'mobile' ? <RoleTable app="mobile" /> : null },
      ]}
      data-testid="userrole-page"
    />
  );
}

/** /setup/role: the console's roles alone (the spec's permission role page). */
export function WebRoles() {
  return <UserRole app="web" />;
}

/** /setup/mobilerole: the staff app's roles alone. */
export function MobileRoles() {
  return <UserRole app="mobile" />;
}
