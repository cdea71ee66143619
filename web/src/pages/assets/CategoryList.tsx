import { useMemo, useRef } from 'react';
import { Button } from 'antd';
import { assetCategory, type AssetCategoryItem } from '@wuye/contract/assets/ledger';
import { ResourcePage, useCanWrite, useResourceForm } from '../../components/resource';

/** The whole tree on one page. */
const TREE_PAGE = 200;

/**
 * /carpark/device_cate (设备分类; docs/product.md#equipment-ledger): the categories as a tree table
 * (name, code, importance, unit, the assets of each); 新增下级 opens the form with the row as
 * parent. A category with children or assets is not deleted (the server says which).
 */
export default function CategoryList() {
  const canWrite = useCanWrite(assetCategory.def.roles.write);
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
  const form = useResourceForm(assetCategory, formOptions);
  return (
    <ResourcePage<AssetCategoryItem>
      resource={assetCategory}
      title="设备分类"
      tree="parent_id"
      idColumn={false}
      listOptions={listOptions}
      form={form}
      rowActions={(row) =>
        canWrite && (
          <Button
            size="small"
            type="link"
            onClick={() => {
              parentFor.current = row.id;
              form.open();
            }}
            data-testid={`assetcate-addsub-${row.id}`}
          >
            新增下级
          </Button>
        )
      }
    />
  );
}
