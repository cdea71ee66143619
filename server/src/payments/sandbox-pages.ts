import { fenToYuan, toFen } from '@wuye/contract';
import type { FastifyInstance } from 'fastify';
import type { SandboxProvider } from './provider.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (body: string) => `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>模拟支付</title>
<style>body{font:16px system-ui,'Noto Sans CJK SC',sans-serif;max-width:420px;margin:40px auto;padding:0 16px;text-align:center}
button{font-size:18px;padding:10px 32px;background:#07c160;color:#fff;border:0;border-radius:6px;cursor:pointer}.fee{font-size:32px;margin:16px 0}
.sandbox{color:#c0392b;font-size:13px}</style>
</head><body><p class="sandbox">沙箱（演示）支付：不会真实扣款</p>${body}</body></html>`;

const NOT_FOUND = page('<h2>支付链接无效或已过期</h2>');

/**
 * The sandbox provider's pay page: what scanning the renewal QR code opens while the sandbox is
 * on (never registered otherwise). Its address carries the provider's pay key, not our order id;
 * confirming records the amount the form sent with the provider, and the console settles the
 * order through pay_query only when that amount is the order's.
 */
export function registerSandboxPayPages(root: FastifyInstance, sandbox: SandboxProvider) {
  void root.register(async (fastify) => {
    // the pay page's form posts urlencoded; only these routes accept it
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    // the page carries a capability in its address: never cached, never sent on as a referrer
    fastify.addHook('onSend', async (_req, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    });

    fastify.get<{ Params: { key: string } }>('/sandbox-pay/:key', async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const order = await sandbox.findByKey(req.params.key);
      if (!order) return reply.status(404).send(NOT_FOUND);
      if (order.paid_at) return page(`<h2 data-testid="sandbox-paid">支付成功</h2><p>订单 ${esc(order.orderid)} 已支付</p>`);
      const fee = fenToYuan(toFen(order.total_fee));
      return page(`<h2>模拟支付（沙箱）</h2><div class="fee">¥${esc(fee)}</div><p>订单号 ${esc(order.orderid)}</p>
<form method="post" action="/sandbox-pay/${encodeURIComponent(req.params.key)}"><input type="hidden" name="amount" value="${esc(fee)}">
<button data-testid="sandbox-pay" type="submit">确认支付</button></form>`);
    });

    fastify.post<{ Params: { key: string }; Body: Record<string, string> | undefined }>('/sandbox-pay/:key', async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const order = await sandbox.findByKey(req.params.key);
      if (!order) return reply.status(404).send(NOT_FOUND);
      const amount = typeof req.body?.amount === 'string' ? req.body.amount.trim() : '';
      if (!order.paid_at && !(await sandbox.pay(req.params.key, amount))) {
        return reply.status(400).send(page('<h2>支付金额不正确</h2>'));
      }
      return page(`<h2 data-testid="sandbox-paid">支付成功</h2><p>请回到收款页面，等待确认</p>`);
    });
  });
}
