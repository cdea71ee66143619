import { Contracts } from './ContractList';

/** /crm/other_contracts (其他合同; docs/product.md#crm-contracts): contracts of the kind 其他 (outsourcing, advertising…), usually without a room. */
export default function OtherContracts() {
  return <Contracts section="other" />;
}
