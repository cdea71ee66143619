import { Button } from 'antd';
import { Link } from 'react-router';
import { complaintCategory } from '@wuye/contract/steward/complaints';
import { ResourcePage } from '../../components/resource';

/**
 * 投诉分类设置 (/steward/complaintcategory; docs/product.md#complaints): each category's first-response
 * and close deadlines in hours; a complaint registered under it gets its deadlines from them.
 */
export default function ComplaintCategoryList() {
  return (
    <ResourcePage
      resource={complaintCategory}
      title="投诉分类设置"
      toolbar={
        <Link to="/steward/complaintlist">
          <Button data-testid="complaintcategory-back">返回投诉建议</Button>
        </Link>
      }
    />
  );
}
