-- The leases' unpaid bills (欠租明细, 租赁概况): the community's few among its millions of bills,
-- read by due day with their amounts without visiting the table.
CREATE INDEX fee_bills_lease_unpaid ON fee_bills (rid, due_date, id) INCLUDE (fee) WHERE source = 'lease' AND status <> 'Y';
