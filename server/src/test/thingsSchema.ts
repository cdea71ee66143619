import crypto from 'node:crypto';
import pg from 'pg';

/**
 * A schema of its own on the PostgreSQL server holding `things` (id, title 'thing <id>') with
 * `count` rows, for the driver-level tests; `admin` is a connection outside it, `drop` removes it.
 */
export async function thingsSchema(url: string, prefix: string, count: number) {
  const schema = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.query(`CREATE TABLE ${schema}.things (id int PRIMARY KEY, title text NOT NULL)`);
  await admin.query(`INSERT INTO ${schema}.things SELECT g, 'thing ' || g FROM generate_series(1, ${count}) g`);
  return {
    schema,
    admin,
    async drop() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
