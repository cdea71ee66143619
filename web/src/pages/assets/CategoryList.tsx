import { assetCategory, type AssetCategoryItem } from '@wuye/contract/assets/ledger';
import { TreeResourcePage } from '../../components/resource';

/**
 * /carpark/device_cate (设备分类; docs/product.md#equipment-ledger): the categories as a tree table
 * (name, code, importance, unit, the assets of each); 新增下级 opens the form with the row as
 * parent. A category with children or assets is not deleted (the server says which).
 */
export default function CategoryList() {
  return <TreeResourcePage<AssetCategoryItem> resource={assetCategory} title="设备分类" />;
}
