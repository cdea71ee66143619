import { z } from 'zod';
import type { Registry } from './registry.js';

interface MethodDoc {
  method: string;
  summary: string;
  side: string;
  endpoint: string[];
  roles: string[] | 'any' | 'staff' | 'public';
  /** refused to merchant accounts whatever codes they hold */
  notMerchants: boolean;
  /** a read-only board session may call it too */
  board: boolean;
  writes: boolean;
  allowExpired: boolean;
  input: unknown;
}

const ENDPOINTS: Record<string, string[]> = {
  public: ['/webapi', '/webapi_leader'],
  community: ['/webapi'],
  group: ['/webapi_leader'],
  both: ['/webapi', '/webapi_leader'],
};

/** The method catalogue generated from the registry (fields with types and limits). */
export function apiDocsJson(registry: Registry): { methods: MethodDoc[] } {
  return {
    methods: registry.all().map((def) => ({
      method: def.name,
      summary: def.spec.summary,
      side: def.spec.side,
      endpoint: def.name === 'get_system_extendinfo' ? ['/get_system_extendinfo', ...ENDPOINTS.both!] : ENDPOINTS[def.spec.side]!,
      roles:
        def.spec.side === 'public'
          ? 'public'
          : def.spec.roles === 'any' || def.spec.roles === 'staff'
            ? def.spec.roles
            : [...def.spec.roles],
      notMerchants: Boolean(def.spec.notMerchants),
      board: Boolean(def.spec.board),
      writes: Boolean(def.spec.writes),
      allowExpired: Boolean(def.spec.allowExpired),
      input: z.toJSONSchema(def.schema, { io: 'input', unrepresentable: 'any' }),
    })),
  };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function apiDocsHtml(registry: Registry): string {
  const { methods } = apiDocsJson(registry);
  const rows = methods
    .map((m) => {
      const schema = m.input as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      const fields = Object.entries(schema.properties ?? {})
        .map(([name, p]) => {
          const limits = ['minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'enum', 'default']
            .filter((k) => p[k] !== undefined)
            .map((k) => `${k}=${JSON.stringify(p[k])}`)
            .join(' ');
          const type = String(p.type ?? (p.anyOf ? 'union' : p.const !== undefined ? JSON.stringify(p.const) : ''));
          const req = schema.required?.includes(name) ? ' <b>必填</b>' : '';
          return `<li><code>${esc(name)}</code> ${esc(type)}${req} <small>${esc(limits)}</small></li>`;
        })
        .join('');
      const named = Array.isArray(m.roles) ? m.roles.join(', ') : m.roles === 'staff' ? 'staff（物业公司账号，商户除外）' : m.roles;
      const roles = m.notMerchants ? `${named}（商户账号除外）` : named;
      return `<tr id="${esc(m.method)}"><td><code>${esc(m.method)}</code></td><td>${esc(m.summary)}</td><td>${esc(m.endpoint.join(' '))}</td><td>${esc(roles)}</td><td>${m.writes ? '写' : '读'}</td><td><ul>${fields || '<li>无</li>'}</ul></td></tr>`;
    })
    .join('\n');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>接口目录</title>
<style>body{font:14px system-ui,'Noto Sans CJK SC',sans-serif;margin:24px;color:#222}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:6px 8px;vertical-align:top;text-align:left}th{background:#f5f7fa}ul{margin:0;padding-left:18px}code{color:#c41d7f}</style></head>
<body><h1>接口目录</h1><p>所有调用为 <code>POST</code>，JSON 正文带 <code>method</code> 字段，令牌放在 <code>X-Token</code> 请求头。应答统一为 <code>{ return_code, return_msg, data }</code>，成功为 <code>SUCCESS</code>。正文上限 256 KB；上传类接口（字段含 <code>file_base64</code>）的大正文须同时在请求头 <code>X-Method</code> 写明该接口名，且令牌有权调用。JSON 版本：<a href="/api-docs.json">/api-docs.json</a></p>
<table><thead><tr><th>method</th><th>说明</th><th>地址</th><th>角色</th><th>读写</th><th>字段</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}
