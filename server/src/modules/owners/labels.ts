/** Texts of the balance ledger's codes (the cashier writes the codes). */
export const FEETYPE_CH: Record<string, string> = {
  recharge: '余额充值',
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
export const PAYTYPE_CH: Record<string, string> = {
  cash: '现金',
  wechat: '微信支付',
  alipay: '支付宝',
  bankcard: '银行卡',
  transfer: '银行转账',
  balance: '余额支付',
};
