/**
 * The methods measured against the database itself: the payload sent to /webapi and the SQL
 * the handler issues for it (community 1), issued directly through the pg driver.
 */
export interface ApiCase {
  method: string;
  payload: Record<string, unknown>;
  sql: Array<{ text: string; values: unknown[] }>;
}

// every call is authenticated first: the session lookup is part of the API's work, not the raw side's
export const apiCases: ApiCase[] = [
  {
    method: 'backlog_list',
    payload: { status: 'E', page: 1, limit: 10 },
    sql: [
      { text: `select id, title, content, kind, link, status, created_at, done_at from backlog where rid = $1 and status = $2 order by id asc limit 10 offset 0`, values: [1, 'E'] },
      { text: `select count(*)::int as total from backlog where rid = $1 and status = $2`, values: [1, 'E'] },
    ],
  },
];
