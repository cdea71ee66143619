import pg from 'pg';

/**
 * One statement on a connection of its own to the PostgreSQL server at `url`: a schema or a
 * database made or dropped (CREATE / DROP DATABASE cannot run inside a pool's transaction), by the
 * test harness, the journeys' server and the benchmarks.
 */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
