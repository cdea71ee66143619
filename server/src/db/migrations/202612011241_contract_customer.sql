-- A contract's customer of the sales CRM (docs/product.md#crm-contracts): the one it was drafted for,
-- or the one of the party's mobile once it takes effect; signing moves the customer to 签约.
ALTER TABLE contracts ADD COLUMN customer_id bigint;
ALTER TABLE contracts ADD FOREIGN KEY (rid, customer_id) REFERENCES crm_customers (rid, id);
CREATE INDEX contracts_customer ON contracts (rid, customer_id) WHERE customer_id IS NOT NULL;
