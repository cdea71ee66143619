-- 支付方式 (paytypelist, issue 45; docs/product.md#paytypelist): the group's rules for each of the
-- system's payment methods. No row: the method's defaults (contract/src/leader/paytypes.ts,
-- payTypeDefaults). The methods are the system's, so a row is never deleted, only disabled.
CREATE TABLE pay_type_rules (
  group_id            int NOT NULL REFERENCES groups(id),
  pay_type            text NOT NULL CHECK (pay_type IN ('cash', 'wechat', 'alipay', 'bankcard', 'transfer', 'balance')),
  enabled             char(1) NOT NULL CHECK (enabled IN ('Y', 'N')),
  counted             char(1) NOT NULL CHECK (counted IN ('Y', 'N')),
  ref_required        char(1) NOT NULL CHECK (ref_required IN ('Y', 'N')),
  sort                int NOT NULL CHECK (sort BETWEEN 0 AND 999),
  remark              text NOT NULL DEFAULT '',
  updated_at          timestamptz NOT NULL DEFAULT now(),
  updated_by          bigint,
  PRIMARY KEY (group_id, pay_type)
);

-- the reference written with a receipt when its method asks for one (银行流水号, 凭证号)
ALTER TABLE fee_payments ADD COLUMN pay_ref text NOT NULL DEFAULT '';
