/** Tables of the owners area (members, cars, ledgers, visitors, parking, access, activities). */
export interface OwnersTables {}
