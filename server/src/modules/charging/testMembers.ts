import { toFen } from '@wuye/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { moveBalance } from '../cards/ledger.js';

let seq = 0;

/**
 * The member of community 1 at `offset` in id order, with `yuan` added to the balance through the
 * ledger (a cash top-up), for the charging tests: each test file takes its own range of offsets.
 */
export async function memberWithBalance(db: Kysely<DB>, offset: number, yuan: string): Promise<{ id: number; mobile: string }> {
  const m = await db
    .selectFrom('members')
    .select(['id', 'mobile'])
    .where('rid', '=', 1)
    .orderBy('id')
    .offset(offset)
    .limit(1)
    .executeTakeFirstOrThrow();
  await db.transaction().execute((trx) =>
    moveBalance(trx, {
      rid: 1,
      memberId: m.id,
      fen: toFen(yuan),
      ioType: 1,
      feetype: 'recharge',
      paytype: 'cash',
      orderid: `TCH${++seq}`,
      remark: '',
      createUser: 'test',
    }),
  );
  return { id: Number(m.id), mobile: m.mobile };
}
