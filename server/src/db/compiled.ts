import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type RawBuilder,
} from 'kysely';
import type { DB } from './schema.js';

/**
 * A Kysely that only compiles (Kysely's documented DummyDriver set-up): statements are built with
 * it once and run on the caller's own connection or transaction.
 */
const compileOnly = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Where a call's value goes: the builder takes it as any other value and it becomes a parameter. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * The values of a statement, as the builder sees them while it is built once. An optional value is
 * used only where the shape says it is given, so each is typed as present.
 */
export type Slots<P> = { readonly [K in keyof P]-?: NonNullable<P[K]> };

/** Which of a statement's optional values a call gives: each one given adds its condition, so it is the shape. */
export type Given<V> = { readonly [K in keyof V]-?: boolean };

export function givenOf<V extends object>(values: V): Given<V> {
  const given: Record<string, boolean> = {};
  for (const k in values) given[k] = values[k] !== undefined;
  return given as Given<V>;
}

/**
 * The names of the values a call gives, as a shape's key: what `givenOf` tells, without making
 * the object on every call (only a shape's first call builds it).
 */
export function givenKey(values: object): string {
  let key = '';
  for (const k in values) if ((values as Record<string, unknown>)[k] !== undefined) key += `${k},`;
  return key;
}

/** Statements kept per template; beyond it they are let go and compiled again as asked. */
const SHAPES_PER_TEMPLATE = 64;

/**
 * A statement written with the query builder, built and compiled once per shape and then only
 * bound to each call's values. Building and compiling a query with Kysely is pure overhead on a
 * hot read (nodes frozen one by one, then visited): for a drawer tab at scale it was a sixth of
 * the server's time per request (docs/adr/0002-compiled-templates.md).
 *
 * `build` receives the compile-only builder (and may answer a query builder or an sql``
 * template), `p` (each value a placeholder that must be used whole as a value:
 * `.where('rid', '=', p.rid)`, not inside `in` lists or literals) and the shape, which holds
 * whatever changes the text: optional filters, sort, page literals. A shape is known by `keyOf`
 * (by default its JSON, so keep it small and of plain values), which runs on every call and must
 * tell apart any two shapes `build` would write differently. Anything else `build` reads is
 * compiled into the statement for good, so it must be a constant: a session's community or a
 * payload's value read from a closure would answer every later call with the first one's.
 */
export function template<P extends object, S, O>(
  build: (db: Kysely<DB>, p: Slots<P>, shape: S) => Compilable<O> | RawBuilder<O>,
  keyOf: (shape: S) => string = (shape) => JSON.stringify(shape) ?? '',
) {
  const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as Slots<P>;
  const shapes = new Map<string, { sql: string; parameters: readonly unknown[] }>();
  const compiledFor = (shape: S) => {
    const key = keyOf(shape);
    let compiled = shapes.get(key);
    if (!compiled) {
      // a query builder compiles by itself, an sql`` template with the builder it would run on
      compiled = build(compileOnly, slots, shape).compile(compileOnly);
      // a few shapes are in use at a time: forgetting all now and then costs a few compiles
      if (shapes.size >= SHAPES_PER_TEMPLATE) shapes.clear();
      shapes.set(key, compiled);
    }
    return compiled;
  };
  const bound = (shape: S, values: P) => {
    const { sql, parameters } = compiledFor(shape);
    return { sql, parameters: parameters.map((v) => (v instanceof Slot ? valueOf(values as Record<string, unknown>, v.name) : v)) };
  };
  return {
    /** The statement for this shape and these values, ready for `db.executeQuery`. */
    bind(shape: S, values: P): CompiledQuery<O> {
      const { sql, parameters } = bound(shape, values);
      return CompiledQuery.raw(sql, parameters) as CompiledQuery<O>;
    },
    async rows(db: Kysely<DB>, shape: S, values: P): Promise<O[]> {
      const run = runners.get(db);
      if (!run) return (await db.executeQuery(this.bind(shape, values))).rows;
      const { sql, parameters } = bound(shape, values);
      return (await run(sql, parameters)).rows as O[];
    },
  };
}

type Runner = (sql: string, parameters: unknown[]) => Promise<{ rows: unknown[] }>;

/** The driver's pool behind each database's root Kysely (not its transactions). */
const runners = new WeakMap<Kysely<DB>, Runner>();

/**
 * Lets templates run their statements on `db`'s pool directly. Kysely's executor costs a
 * statement five promises, a connection lent and returned, and a frozen query object: at a drawer
 * tab's 0.06 ms of server CPU that is a few per cent (docs/adr/0002-compiled-templates.md). A transaction
 * is another object, so a template run in one still goes through Kysely on its connection.
 */
export function runTemplatesOn(db: Kysely<DB>, run: Runner): void {
  runners.set(db, run);
}

function valueOf(values: Record<string, unknown>, name: string): unknown {
  if (!(name in values)) throw new Error(`statement template: no value for ${name}`);
  return values[name];
}
