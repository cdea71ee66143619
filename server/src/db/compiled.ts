import {
  CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable, type RawBuilder,
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

export const givenOf = <V extends object>(values: V) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v !== undefined])) as Given<V>;

/** Statements kept per template; beyond it the least recently used shape is compiled again when asked. */
const SHAPES_PER_TEMPLATE = 64;

/**
 * A statement written with the query builder, built and compiled once per shape and then only
 * bound to each call's values. Building and compiling a query with Kysely is pure overhead on a
 * hot read (nodes frozen one by one, then visited): for a drawer tab at scale it was a sixth of
 * the server's time per request (bench/README.md, ninth round).
 *
 * `build` receives the compile-only builder (and may answer a query builder or an sql``
 * template), `p` (each value a placeholder that must be used whole as a value:
 * `.where('rid', '=', p.rid)`, not inside `in` lists or literals) and the shape, which holds whatever changes the text: optional filters, sort, page literals. A shape
 * is keyed by its JSON, so keep it small and of plain values. Anything else `build` reads is
 * compiled into the statement for good, so it must be a constant: a session's community or a
 * payload's value read from a closure would answer every later call with the first one's.
 */
export function template<P extends object, S, O>(
  build: (db: Kysely<DB>, p: Slots<P>, shape: S) => Compilable<O> | RawBuilder<O>,
) {
  const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as Slots<P>;
  const shapes = new Map<string, { sql: string; parameters: readonly unknown[] }>();
  const compiledFor = (shape: S) => {
    const key = JSON.stringify(shape) ?? '';
    let compiled = shapes.get(key);
    if (compiled) {
      shapes.delete(key); // most recently used: to the end of the map's order
    } else {
      // a query builder compiles by itself, an sql`` template with the builder it would run on
      compiled = build(compileOnly, slots, shape).compile(compileOnly);
      if (shapes.size >= SHAPES_PER_TEMPLATE) shapes.delete(shapes.keys().next().value!);
    }
    shapes.set(key, compiled);
    return compiled;
  };
  return {
    /** The statement for this shape and these values, ready for `db.executeQuery`. */
    bind(shape: S, values: P): CompiledQuery<O> {
      const { sql, parameters } = compiledFor(shape);
      return CompiledQuery.raw(sql, parameters.map((v) => (v instanceof Slot ? valueOf(values as Record<string, unknown>, v.name) : v))) as CompiledQuery<O>;
    },
    async rows(db: Kysely<DB>, shape: S, values: P): Promise<O[]> {
      return (await db.executeQuery(this.bind(shape, values))).rows;
    },
  };
}

function valueOf(values: Record<string, unknown>, name: string): unknown {
  if (!(name in values)) throw new Error(`statement template: no value for ${name}`);
  return values[name];
}
