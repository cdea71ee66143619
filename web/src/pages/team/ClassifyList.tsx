import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Card, Tabs } from 'antd';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { department, position, type DeptItem } from '@wuye/contract/team/departments';
import { DepartmentSelect } from './DepartmentSelect';
import { toastError } from '../../api/feedback';
import { ResourcePage, useCanWrite, useResourceForm, useResourceList, type Widgets } from '../../components/resource';

/** The whole tree on one page. */
const TREE_PAGE = 200;
const LIST = '/team/classifylist';

/**
 * 部门: the company's org chart as a tree table. 新增下级 opens the form with the row as parent;
 * /team/categoryadd?parent_id= and /team/categoryedit?id= open the same form from a link.
 */
function Departments({ route }: { route: 'add' | 'edit' | null }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const canWrite = useCanWrite(department.def.roles.write);
  const linkParent = Number(params.get('parent_id')) || undefined;
  const linkId = Number(params.get('id')) || 0;
  /** the parent 新增下级 chose, read once by the form's defaults */
  const parentFor = useRef<number | undefined>(undefined);
  const listOptions = useMemo(() => ({ pageSize: TREE_PAGE }), []);
  const list = useResourceList(department, listOptions);
  const formOptions = useMemo(
    () => ({
      defaults: () => {
        const parent_id = parentFor.current ?? (route === 'add' ? linkParent : undefined);
        parentFor.current = undefined;
        return parent_id ? { parent_id } : {};
      },
    }),
    [route, linkParent],
  );
  const form = useResourceForm(department, formOptions);
  const editingId = form.editing && form.editing !== 'new' ? form.editing.id : undefined;
  const widgets = useMemo<Widgets>(
    () => ({ parent_id: ((p: object) => <DepartmentSelect {...p} exclude={editingId} />) as Widgets[string] }),
    [editingId],
  );

  // the form the address names opens once: a new department, or the row once the list has it
  const opened = useRef(false);
  useEffect(() => {
    if (!route || opened.current) return;
    if (route === 'add') {
      opened.current = true;
      form.open();
      return;
    }
    if (!linkId) {
      // no department named: the list itself
      opened.current = true;
      void navigate(LIST, { replace: true });
      return;
    }
    const row = list.items.find((r) => r.id === linkId);
    if (row) {
      opened.current = true;
      form.open(row);
    } else if (!list.loading && list.total > 0) {
      opened.current = true;
      toastError('部门不存在');
      void navigate(LIST, { replace: true });
    }
  }, [route, form, list.items, list.loading, list.total, linkId, navigate]);
  // closed (saved or cancelled) on its own address: back to the list
  const wasOpen = useRef(false);
  useEffect(() => {
    if (form.editing) wasOpen.current = true;
    else if (wasOpen.current && route) void navigate(LIST, { replace: true });
  }, [form.editing, route, navigate]);

  return (
    <ResourcePage<DeptItem>
      resource={department}
      title="部门"
      tree="parent_id"
      idColumn={false}
      listOptions={listOptions}
      form={form}
      widgets={widgets}
      rowActions={(row) =>
        canWrite && (
          <Button
            size="small"
            type="link"
            onClick={() => {
              parentFor.current = row.id;
              form.open();
            }}
            data-testid={`dept-addsub-${row.id}`}
          >
            新增下级
          </Button>
        )
      }
    />
  );
}

/**
 * /team/classifylist (部门岗位): the property company's departments (a tree) and positions, shared
 * by all its communities; /team/categoryadd and /team/categoryedit open the department form.
 */
export default function ClassifyList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/categoryadd') ? 'add' : pathname.endsWith('/categoryedit') ? 'edit' : null;
  const [tab, setTab] = useState('dept');
  return (
    <Card variant="borderless" className="team-classify" styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={route ? 'dept' : tab}
        onChange={setTab}
        items={[
          { key: 'dept', label: '部门', children: <Departments route={route} /> },
          {
            key: 'position',
            label: '岗位',
            // the address keeps the departments' filters; the positions' stay on the page
            children: <ResourcePage resource={position} title="岗位" idColumn={false} listOptions={{ syncUrl: false }} />,
          },
        ]}
      />
    </Card>
  );
}
