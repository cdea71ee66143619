import { Button } from 'antd';
import { accessRegion, type RegionItem } from '@wuye/contract';
import { request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { ResourcePage, useResourceList } from '../../components/resource';

/**
 * /carpark/setregions (门禁区域; docs/product.md#access-control): regions with their devices and
 * default time plan. A unit's region is made by itself when a unit-door device is added (来源
 * 自动生成); 生成单元区域 makes one for every unit.
 */
const OPTIONS = {};

export default function RegionList() {
  const list = useResourceList(accessRegion, OPTIONS);
  const generate = async () => {
    try {
      const answer = await request('accessregiongenerate', {});
      noticeSuccess(answer.return_msg);
      list.reload();
    } catch {
      /* shown by the client */
    }
  };
  return (
    <ResourcePage<RegionItem>
      resource={accessRegion}
      title="门禁区域"
      toolbar={
        <Button onClick={() => void generate()} data-testid="region-generate">
          生成单元区域
        </Button>
      }
    />
  );
}
