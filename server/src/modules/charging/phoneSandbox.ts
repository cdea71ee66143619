/**
 * The SMS sandbox's page of a verification code sent to an owner's phone at a pile (扫码充电,
 * docs/product.md#charging-piles): what a tester opens instead of reading a real SMS, as the sandbox
 * pay page stands in for paying (payments/sandbox-pages.ts). Registered only while the
 * configuration turns the sandbox on outside production; the address carries the message's own
 * random out id (a capability), never the mobile; the page shows only messages of charging codes.
 */
import { maskMobile } from '@wuye/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (body: string) => `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>沙箱短信</title>
<style>body{font:16px system-ui,'Noto Sans CJK SC',sans-serif;max-width:420px;margin:40px auto;padding:0 16px}
.sms{background:#f4f4f5;border-radius:12px;padding:14px 16px;line-height:1.6}.code{font-size:32px;letter-spacing:6px;margin:12px 0;text-align:center}
.sandbox{color:#c0392b;font-size:13px}</style>
</head><body><p class="sandbox">沙箱（演示）短信：不会真实发送，仅供测试查看</p>${body}</body></html>`;

export function registerChargeSandboxSmsPage(root: FastifyInstance, db: Kysely<DB>) {
  void root.register(async (fastify) => {
    // the page carries a capability in its address: never cached, never sent on as a referrer
    fastify.addHook('onSend', async (_req, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    });
    fastify.get<{ Params: { outId: string } }>('/sandbox-sms/:outId', async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const outId = req.params.outId;
      const msg = /^charge-[0-9a-f]{32}$/.test(outId)
        ? await db
            .selectFrom('sms_sandbox_outbox')
            .select(['mobile', 'content', 'params', 'created_at'])
            .where('out_id', '=', outId)
            .executeTakeFirst()
        : undefined;
      if (!msg) return reply.status(404).send(page('<h2>短信不存在或已失效</h2>'));
      const params = (typeof msg.params === 'string' ? JSON.parse(msg.params) : msg.params) as { code?: string };
      return page(`<h2>发给 ${esc(maskMobile(msg.mobile))} 的短信</h2>
<div class="code" data-testid="sandbox-sms-code">${esc(String(params.code ?? ''))}</div>
<div class="sms" data-testid="sandbox-sms-content">${esc(msg.content)}</div>`);
    });
  });
}
