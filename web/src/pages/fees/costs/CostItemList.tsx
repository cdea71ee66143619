import { useMemo, useRef, useState } from 'react';
import { Button } from 'antd';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { costItem, type CostItemRow } from '@wuye/contract/fees/costs';
import { call } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import {
  invalidateResource,
  ResourcePage,
  useCanWrite,
  useFormFromAddress,
  useResourceForm,
  useResourceList,
  type Widgets,
} from '../../../components/resource';
import { CategorySelect } from './widgets';

/** The whole tree on one page. */
const TREE_PAGE = 200;
export const COST_ITEM_LIST = '/fees/costitemlist';

/**
 * /fees/costitemlist (成本项目; docs/product.md#costs): the categories and the items under them as
 * a tree table; 新增项目 opens the form under a category, /fees/costitemadd?parent_id= and
 * /fees/costitemedit?id= open the same form from a link. 补齐默认分类 adds the built-in categories a
 * community lacks. A row's 成本记录 opens the costs registered on it.
 */
export default function CostItemList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/costitemadd') ? 'add' : pathname.endsWith('/costitemedit') ? 'edit' : null;
  const [params] = useSearchParams();
  const canWrite = useCanWrite(costItem.def.roles.write);
  const queryClient = useQueryClient();
  const linkParent = Number(params.get('parent_id')) || undefined;
  const linkId = Number(params.get('id')) || 0;
  /** the category 新增项目 chose, read once by the form's defaults */
  const parentFor = useRef<number | undefined>(undefined);
  const listOptions = useMemo(() => ({ pageSize: TREE_PAGE, path: COST_ITEM_LIST }), []);
  const list = useResourceList(costItem, listOptions);
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
  const form = useResourceForm(costItem, formOptions);
  const editingId = form.editing && form.editing !== 'new' ? form.editing.id : undefined;
  const widgets = useMemo<Widgets>(
    () => ({ parent_id: ((p: object) => <CategorySelect {...p} exclude={editingId} />) as Widgets[string] }),
    [editingId],
  );
  useFormFromAddress({
    route,
    linkId,
    items: list.items,
    ready: !list.loading && list.total > 0,
    form,
    listPath: COST_ITEM_LIST,
    missing: '成本项目不存在',
  });
  const [initing, setIniting] = useState(false);
  const initDefaults = async () => {
    setIniting(true);
    try {
      const res = await call('costcategoryinit', {});
      noticeSuccess(res.added > 0 ? `已添加 ${res.added} 个默认分类` : '默认分类都已存在');
      await invalidateResource(queryClient, costItem.def.name);
    } catch {
      /* shown by the client */
    } finally {
      setIniting(false);
    }
  };
  const recordsOf = (row: CostItemRow) => `/fees/costdetaillist?${row.parent_id === null ? `category_id=${row.id}` : `item_id=${row.id}`}`;

  return (
    <ResourcePage<CostItemRow>
      resource={costItem}
      title="成本项目"
      tree="parent_id"
      idColumn={false}
      listOptions={listOptions}
      form={form}
      widgets={widgets}
      toolbar={
        <Button loading={initing} onClick={() => void initDefaults()} data-testid="costitem-init">
          补齐默认分类
        </Button>
      }
      columns={{
        record_count: {
          render: (n: number, row: CostItemRow) =>
            n > 0 ? (
              <Link to={recordsOf(row)} data-testid={`costitem-records-${row.id}`}>
                {n}
              </Link>
            ) : (
              0
            ),
        },
      }}
      rowActions={(row) =>
        canWrite &&
        row.parent_id === null && (
          <Button
            size="small"
            type="link"
            onClick={() => {
              parentFor.current = row.id;
              form.open();
            }}
            data-testid={`costitem-addsub-${row.id}`}
          >
            新增项目
          </Button>
        )
      }
    />
  );
}
