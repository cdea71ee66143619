import { roomCategory } from '@wuye/contract/structure';
import { ResourcePage } from '../../components/resource';

/** category: room categories (住宅、商铺、写字楼、车位、储藏室…). */
export default function CategoryList() {
  return <ResourcePage resource={roomCategory} title="房屋类型" />;
}
