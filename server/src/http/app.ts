import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { MSG, RC } from '@wuye/contract';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/connection.js';
import { modules } from '../modules/index.js';
import { answerText } from './answer-text.js';
import { apiDocsHtml, apiDocsJson } from './api-docs.js';
import {
  ASSET_LOADER_HASH,
  firstScreenOf,
  isHomePath,
  parseCookies,
  renderFirstScreen,
  withFirstScreen,
  type FirstScreen,
} from './first-screen.js';
import { Dispatcher, type AuthOutcome } from './dispatcher.js';
import { authenticate } from './authenticate.js';
import { AddressLimiter } from './rate-limit.js';
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth.js';
import { hasAnyRole } from '@wuye/contract';
import { MESSAGES } from './errors.js';
import { Registry, type Side } from './registry.js';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { createServices, type Services } from './services.js';
import { registerSandboxPayPages } from '../payments/sandbox-pages.js';
import { registerChargeSandboxSmsPage } from '../modules/charging/phoneSandbox.js';
import { JobRunner } from '../jobs/runner.js';
import { AUTH_CHANNEL, SessionCache } from './session-cache.js';
import { listenForChanges } from './change-listener.js';
import { BILLS_CHANNEL, CountCache } from '../lib/countCache.js';
import { clearDictLabels } from '../modules/setup/dictLabels.js';
import { registerImageRoutes } from '../modules/system/images.js';

export interface App {
  fastify: FastifyInstance;
  registry: Registry;
  dispatcher: Dispatcher;
  services: Services;
  /** live sessions remembered for a few seconds; tests that change sessions behind the API clear it */
  sessions: SessionCache;
  jobs: JobRunner;
}

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  // antd writes its styles inline; scripts only from ourselves, and the first screen's asset loader
  'content-security-policy': `default-src 'self'; script-src 'self' ${ASSET_LOADER_HASH}; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https: http:; connect-src 'self'; frame-ancestors 'self'; form-action 'self'`,
};

declare module 'fastify' {
  interface FastifyRequest {
    /** the X-Token resolved as the request came in, before its body is read (API routes) */
    auth?: AuthOutcome;
  }
}

/** The routes that dispatch calls by method (the spec's wire format). */
const API_ROUTES = new Set(['/webapi', '/webapi_leader', '/get_system_extendinfo']);

/** A request's address for the log: the path, with every query value replaced (one-time codes, old links' tokens). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((p) => `${p.split('=')[0]}=***`);
  return `${url.slice(0, q)}?${params.join('&')}`;
}

export async function buildApp(config: Config, database: Database, opts: { logger?: boolean } = {}): Promise<App> {
  const fastify = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers["x-token"]', 'req.headers.cookie'],
            serializers: {
              // the path without its query values: an address may carry a code or, from an old link, a token
              req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
                method: req.method,
                url: redactUrl(req.url),
                hostname: req.hostname,
                remoteAddress: req.ip,
              }),
            },
          },
    // the largest body any call may have (an upload's); every other request gets the small limit (preParsing below)
    bodyLimit: Math.max(config.bodyLimitBytes, config.uploadBodyLimitBytes),
    // only the configured proxies' X-Forwarded-* are believed (TRUST_PROXY); by default none
    trustProxy: config.trustProxy,
  });
  // one log line per request only when asked: at hundreds of calls a second it is noise
  const routeOpts = { logLevel: process.env.LOG_REQUESTS === '1' ? 'info' : 'warn' } as const;
  const registry = new Registry(modules.flat());
  const sessions = new SessionCache(config.sessionCacheMs);
  // bill totals are remembered only where other processes' changes are heard (PostgreSQL)
  const billCounts = new CountCache(config.countCacheMs);
  if (database.kind === 'postgres' && (config.sessionCacheMs > 0 || config.countCacheMs > 0)) {
    const stopListening = listenForChanges(
      config,
      [
        { channel: AUTH_CHANNEL, cache: sessions },
        { channel: BILLS_CHANNEL, cache: billCounts },
      ],
      fastify.log,
    );
    fastify.addHook('onClose', async () => stopListening());
  }
  const services = createServices(database.db, config, sessions, billCounts);
  // a committed write may have ended sessions (logout, password, region switch) or changed bills
  const afterWrite = () => {
    sessions.clear();
    billCounts.clear();
    clearDictLabels();
  };
  const dispatcher = new Dispatcher(registry, database.db, config, services, afterWrite);

  // set as each request comes in, so that every answer, errors included, carries them; a callback
  // hook, not an async one, as it runs on every call
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    // API answers carry personal data: no cache, shared or private, keeps them
    if (req.routeOptions.url && API_ROUTES.has(req.routeOptions.url)) reply.header('cache-control', 'no-store');
    done();
  });

  // Before a body is read: the caller's token is resolved (the session cache answers most), and a
  // caller without a live session is held to a per-address rate, so nobody without an account can
  // keep the server reading bodies for everyone else.
  const anonymous = new AddressLimiter(config.anonRatePerMinute);
  fastify.addHook('onRequest', async (req, reply) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
    const token = headerToken(req);
    if (token && req.routeOptions.url && API_ROUTES.has(req.routeOptions.url)) {
      req.auth = await authenticate(database.db, config, token, sessions).then(
        (result): AuthOutcome => ({ ok: true, result }),
        (error: unknown): AuthOutcome => ({ ok: false, error }),
      );
    }
    if (req.auth?.ok) return;
    const wait = anonymous.take(req.ip);
    if (wait > 0) {
      return reply
        .status(429)
        .header('retry-after', String(wait))
        .header('connection', 'close')
        .send({ return_code: RC.FAIL, return_msg: MESSAGES.tooMany, data: null });
    }
  });

  // The body limit of this request: the large one only for an upload method named in X-Method by a
  // live session allowed to call it; a body over the limit is refused as soon as it is known to be
  // (its Content-Length, else the byte that crosses it), without reading the rest.
  fastify.addHook('preParsing', async (req, _reply, payload) => {
    const limit = uploadAllowed(req) ? config.uploadBodyLimitBytes : config.bodyLimitBytes;
    if (Number(req.headers['content-length']) > limit) throw bodyTooLarge(limit);
    return limitStream(payload, limit);
  });
  const uploadAllowed = (req: FastifyRequest): boolean => {
    const method = req.headers['x-method'];
    if (!req.auth?.ok || typeof method !== 'string' || !registry.uploads.has(method)) return false;
    const session = req.auth.result.session;
    const def = registry.byName.get(method)!;
    const roles = def.spec.roles;
    if (session.kind !== 'console' || (def.spec.side !== 'both' && def.spec.side !== session.side)) return false;
    if (def.spec.notMerchants && session.sysType === 'merchant') return false;
    if (roles === 'staff') return session.sysType !== 'merchant';
    return !roles || roles === 'any' || hasAnyRole(session.roles, roles);
  };

  // JSON as fastify parses it (prototype poisoning refused), after a depth check: a deeply nested
  // body costs a parser and every walk over it time and stack for nothing
  const parseJson = fastify.getDefaultJsonParser('error', 'ignore');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonTooDeep(body as string, MAX_JSON_DEPTH)) {
      const err = Object.assign(new Error(MESSAGES.tooDeep), { statusCode: 400, code: 'WUYE_JSON_TOO_DEEP' });
      done(err, undefined);
      return;
    }
    parseJson(req, body as string, done);
  });

  fastify.setErrorHandler((err: Error & { code?: string; statusCode?: number }, req, reply) => {
    const status = err.statusCode ?? 500;
    let msg: string = MESSAGES.internal;
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) msg = MSG.badJson;
    else if (err.code === 'WUYE_JSON_TOO_DEEP') msg = MESSAGES.tooDeep;
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      msg = MESSAGES.tooLarge;
      // the rest of the body is not read: the connection ends with the answer
      void reply.header('connection', 'close');
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') msg = MESSAGES.badContentType;
    else if (status < 500) msg = MSG.badJson;
    else req.log.error({ err }, 'request failed');
    void reply.status(status < 500 ? status : 500).send({ return_code: RC.FAIL, return_msg: msg, data: null });
  });

  const rpc = (side: Side, forcedMethod?: string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const body = forcedMethod ? { ...asObject(req.body), method: forcedMethod } : req.body;
    const declared = req.headers['x-method'];
    const answer = await dispatcher.call({
      side,
      anySide: Boolean(forcedMethod),
      body,
      token: headerToken(req),
      auth: req.auth,
      declaredMethod: typeof declared === 'string' && !forcedMethod ? declared : undefined,
      ip: req.ip,
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
      // links and QR codes point to PUBLIC_URL; the request's own host only outside production (config.ts)
      origin: config.publicUrl ?? `${req.protocol}://${req.host}`,
      log: req.log,
    });
    return reply.type('application/json; charset=utf-8').send(answerText(answer));
  };
  fastify.post('/webapi', routeOpts, rpc('community'));
  fastify.post('/webapi_leader', routeOpts, rpc('group'));
  fastify.post('/get_system_extendinfo', routeOpts, rpc('community', 'get_system_extendinfo'));

  fastify.get('/healthz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ok', database: database.kind };
    } catch {
      return reply.status(503).send({ status: 'down', database: database.kind });
    }
  });
  fastify.get('/api-docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(apiDocsHtml(registry)));
  fastify.get('/api-docs.json', async () => apiDocsJson(registry));
  registerImageRoutes(fastify, database.db);
  // the sandbox pay page exists only while the configuration turns the sandbox on
  if (services.sandbox) registerSandboxPayPages(fastify, services.sandbox);
  // and the SMS sandbox's page of an owner's charging code, never in production
  if (config.sandbox && !config.production) registerChargeSandboxSmsPage(fastify, database.db);
  await serveWeb(fastify, config, (cookies) => firstScreenOf(database.db, config, cookies, sessions));
  return {
    fastify,
    registry,
    dispatcher,
    services,
    sessions,
    // the embedded database has this one process: jobs left running were its own, cut off by its death
    jobs: new JobRunner(database.db, fastify.log, { afterJob: () => billCounts.clear(), solo: database.kind === 'pglite' }),
  };
}

function bodyTooLarge(limit: number) {
  return Object.assign(new Error(`${MESSAGES.tooLarge}（上限 ${Math.round(limit / 1024)} KB）`), {
    statusCode: 413,
    code: 'FST_ERR_CTP_BODY_TOO_LARGE',
  });
}

/** The body as it arrives, cut off with a 413 at the byte that crosses `limit`. */
function limitStream(payload: Readable, limit: number): Readable {
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > limit) {
        done(bodyTooLarge(limit));
        return;
      }
      done(null, chunk);
    },
  });
  payload.on('error', (err) => counted.destroy(err));
  // fastify compares this with Content-Length
  Object.defineProperty(counted, 'receivedEncodedLength', { get: () => received });
  return payload.pipe(counted);
}

function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function headerToken(req: FastifyRequest): string | undefined {
  const t = req.headers['x-token'];
  return typeof t === 'string' && t ? t : undefined;
}

/** The built console, with index.html for every client-side route. */
async function serveWeb(
  fastify: FastifyInstance,
  config: Config,
  firstScreen: (cookies: Record<string, string>) => Promise<FirstScreen | null>,
) {
  const index = path.join(config.webDist, 'index.html');
  if (!fs.existsSync(index)) {
    fastify.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send('<p>控制台尚未构建：请运行 npm run build</p>'));
    // a 404 of our own: Fastify's default one logs the address with its query values (a code, a token)
    fastify.setNotFoundHandler(async (req, reply) =>
      req.method !== 'GET' || req.url.startsWith('/webapi')
        ? reply.status(404).send({ return_code: RC.FAIL, return_msg: MSG.unknownMethod, data: null })
        : reply.status(404).type('text/plain; charset=utf-8').send('Not Found'),
    );
    return;
  }
  await fastify.register(fastifyStatic, {
    root: config.webDist,
    wildcard: false,
    index: false,
    // the build writes .br and .gz beside each asset (web/vite.config.ts): sent to browsers that take them
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply) => {
      // file names under /assets/ carry a content hash: a changed file is a new address
      const hashed = reply.request.url.startsWith('/assets/');
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  const html = fs.readFileSync(index, 'utf8');
  fastify.setNotFoundHandler(async (req, reply) => {
    if (req.method !== 'GET' || req.url.startsWith('/webapi')) {
      return reply.status(404).send({ return_code: RC.FAIL, return_msg: MSG.unknownMethod, data: null });
    }
    // a script of an older build is gone: a 404, not the page, which the browser would refuse as a script
    if (req.url.startsWith('/assets/')) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    reply.type('text/html; charset=utf-8');
    if (!isHomePath(req.url)) return reply.header('cache-control', 'no-cache').send(html);
    // the home page carries the signed-in user's first screen: for this browser only
    const cookies = parseCookies(req.headers.cookie);
    const screen = await firstScreen(cookies).catch((err: unknown) => {
      // the page still works without its first screen: the console draws it
      req.log.error({ err }, 'first screen failed');
      return null;
    });
    reply.header('cache-control', 'private, no-cache').header('vary', 'cookie');
    return reply.send(screen ? withFirstScreen(html, renderFirstScreen(screen, cookies)) : html);
  });
}
