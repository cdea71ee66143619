import { costType } from '@wuye/contract/fees/setup';
import { ResourcePage } from '../../components/resource';

/** Cost types (/fees/feeitemcatelist): the fee categories bills are grouped by; the code is given once. */
export default function FeeItemCateList() {
  return <ResourcePage resource={costType} title="费用类型" />;
}
