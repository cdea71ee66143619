import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Services } from '../http/services.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (body: string) => `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>模拟支付</title>
<style>body{font:16px system-ui,'Noto Sans CJK SC',sans-serif;max-width:420px;margin:40px auto;padding:0 16px;text-align:center}
button{font-size:18px;padding:10px 32px;background:#07c160;color:#fff;border:0;border-radius:6px;cursor:pointer}.fee{font-size:32px;margin:16px 0}</style>
</head><body>${body}</body></html>`;

/**
 * The sandbox provider's pay page: what scanning the renewal QR code opens. Confirming
 * settles the order with the sandbox; the console learns of it through pay_query.
 */
export function registerSandboxPayPages(root: FastifyInstance, services: Services, db: Kysely<DB>) {
  void root.register(async (fastify) => {
    // the pay page's form posts urlencoded; only these routes accept it
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
    const findOrder = (orderid: string) =>
      db
        .selectFrom('renewal_orders as o')
        .innerJoin('regions as r', 'r.id', 'o.rid')
        .select(['o.orderid', 'o.total_fee', 'o.years', 'o.status', 'r.title'])
        .where('o.orderid', '=', orderid)
        .executeTakeFirst();

    fastify.get<{ Params: { orderid: string } }>('/sandbox-pay/:orderid', async (req, reply) => {
      const order = await findOrder(req.params.orderid);
      reply.type('text/html; charset=utf-8');
      if (!order) return page('<h2>订单不存在</h2>');
      const settled = await services.sandbox.queryOrder(order.orderid);
      if (settled.paid) return page(`<h2 data-testid="sandbox-paid">支付成功</h2><p>订单 ${esc(order.orderid)} 已支付</p>`);
      return page(`<h2>模拟支付（沙箱）</h2><p>${esc(order.title)} 续费 ${order.years} 年</p>
<div class="fee">¥${esc(order.total_fee)}</div><p>订单号 ${esc(order.orderid)}</p>
<form method="post" action="/sandbox-pay/${encodeURIComponent(order.orderid)}"><button data-testid="sandbox-pay" type="submit">确认支付</button></form>`);
    });

    fastify.post<{ Params: { orderid: string } }>('/sandbox-pay/:orderid', async (req, reply) => {
      const order = await findOrder(req.params.orderid);
      reply.type('text/html; charset=utf-8');
      if (!order) return page('<h2>订单不存在</h2>');
      await services.sandbox.settle(order.orderid, order.total_fee);
      return page(`<h2 data-testid="sandbox-paid">支付成功</h2><p>¥${esc(order.total_fee)}，请回到控制台完成续费</p>`);
    });
  });
}
