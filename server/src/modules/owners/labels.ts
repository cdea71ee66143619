/** Texts of the balance ledger's codes (the cashier writes the codes). */
export const FEETYPE_CH: Record<string, string> = {
  recharge: '余额充值',
  recharge_bonus: '充值赠送',
  recharge_refund: '充值退款',
  opening: '期初余额',
  refund: '退款转余额',
  property: '物业费',
  parking: '停车费',
  water: '水费',
  electricity: '电费',
  gas: '燃气费',
  rent: '租金',
  deposit: '押金',
  shop: '门店消费',
  other: '其他',
};
