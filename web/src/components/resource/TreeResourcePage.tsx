import { useMemo, useRef } from 'react';
import { Button } from 'antd';
import ResourcePage, { type ResourcePageProps } from './ResourcePage';
import { useCanWrite } from './roles';
import { useResourceForm } from './useResourceForm';

type RowBase = { id: number } & object;

/** The whole tree on one page. */
const TREE_PAGE = 200;

/**
 * A resource whose rows hang on a `parent_id` (categories), as a tree table on one page: 新增下级
 * opens the form with the row as parent (where `canHaveChildren` allows). Test ids
 * `${name}-addsub-${id}`.
 */
export default function TreeResourcePage<Row extends RowBase & { parent_id: number | null }>({
  canHaveChildren = () => true,
  ...props
}: Omit<ResourcePageProps<Row>, 'tree' | 'form' | 'listOptions' | 'rowActions'> & { canHaveChildren?: (row: Row) => boolean }) {
  const { resource } = props;
  const canWrite = useCanWrite(resource.def.roles.write);
  const parentFor = useRef<number | undefined>(undefined);
  const listOptions = useMemo(() => ({ pageSize: TREE_PAGE }), []);
  const formOptions = useMemo(
    () => ({
      defaults: () => {
        const parent_id = parentFor.current;
        parentFor.current = undefined;
        return parent_id ? { parent_id } : {};
      },
    }),
    [],
  );
  const form = useResourceForm(resource, formOptions);
  return (
    <ResourcePage<Row>
      idColumn={false}
      {...props}
      tree="parent_id"
      listOptions={listOptions}
      form={form}
      rowActions={(row) =>
        canWrite &&
        canHaveChildren(row) && (
          <Button
            size="small"
            type="link"
            onClick={() => {
              parentFor.current = row.id;
              form.open();
            }}
            data-testid={`${resource.def.name}-addsub-${row.id}`}
          >
            新增下级
          </Button>
        )
      }
    />
  );
}
