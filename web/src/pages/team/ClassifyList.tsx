import { useMemo, useRef, useState } from 'react';
import { Button, Card, Tabs } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { department, position, type DeptItem } from '@wuye/contract/team/departments';
import { DepartmentSelect } from './DepartmentSelect';
import { ResourcePage, useCanWrite, useFormFromAddress, useResourceForm, useResourceList, type Widgets } from '../../components/resource';

/** The whole tree on one page. */
const TREE_PAGE = 200;
const LIST = '/team/classifylist';

/**
 * 部门: the company's org chart as a tree table. 新增下级 opens the form with the row as parent;
 * /team/categoryadd?parent_id= and /team/categoryedit?id= open the same form from a link.
 */
function Departments({ route }: { route: 'add' | 'edit' | null }) {
  const [params] = useSearchParams();
  const canWrite = useCanWrite(department.def.roles.write);
  const linkParent = Number(params.get('parent_id')) || undefined;
  const linkId = Number(params.get('id')) || 0;
  /** the parent 新增下级 chose, read once by the form's defaults */
  const parentFor = useRef<number | undefined>(undefined);
  const listOptions = useMemo(() => ({ pageSize: TREE_PAGE, path: LIST }), []);
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

  useFormFromAddress({
    route,
    linkId,
    items: list.items,
    ready: !list.loading && list.total > 0,
    form,
    listPath: LIST,
    missing: '部门不存在',
  });

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
