import pg from 'pg';
import { LIGHT_TAG, PreparingClient } from './prepared.js';

/** Statements a pipelined connection may have on the wire before the next goes to the pool. */
const MAX_DEPTH = 64;

/**
 * A connection whose oldest statement has waited this long is passed over: what is sent behind
 * a statement on a pipelined connection waits for it, so a slow one must not collect others.
 */
const STALL_MS = 15;

type Result = { rows: Record<string, unknown>[]; rowCount: number | null };

interface Lane {
  client: pg.Client;
  /** until the connection is open; `open` says it is, so a statement need not wait for it */
  ready: Promise<unknown>;
  open: boolean;
  broken: boolean;
  /** when each statement on the wire was sent, oldest first (answers come back in order) */
  sent: number[];
  /** writes of this turn of the event loop are held and go out together (`cork`) */
  corked: boolean;
}

/**
 * A few PostgreSQL connections in pipeline mode (pg's `pipeline: true`) for the light statements
 * clicked most (tagged LIGHT_TAG, db/prepared.ts: key lookups, a room's lists, first pages
 * filtered by equality). pg.Pool sends one statement per connection and waits for its
 * answer, so at 50 requests in flight every statement is a write of its own that wakes a database
 * process, and the server, PostgreSQL and the clients share two cores by switching between them.
 * Here the statements of one turn of the event loop go out on one connection in one write, and the
 * database process answers them one after the other without sleeping between: at 50 clients a
 * drawer tab costs PostgreSQL about half the CPU (docs/adr/0003-pipelining.md).
 *
 * Each statement keeps its own Sync, so an error fails that statement alone. What comes behind a
 * slow statement waits for it, so a connection whose oldest statement has waited STALL_MS, or that
 * holds MAX_DEPTH, is passed over, and when all are the statement goes to the pool as before.
 * A connection that breaks fails what was on it (as a pooled one would) and is opened anew on
 * the next statement.
 */
export class PipelinedConnections {
  readonly #lanes: Array<Lane | undefined>;
  #ended = false;

  constructor(
    size: number,
    private readonly config: pg.ClientConfig,
    private readonly prepare: boolean,
    /** where a statement goes that is not tagged light or finds every lane busy */
    private readonly pool: { query(text: string, values?: unknown[]): Promise<Result> },
  ) {
    this.#lanes = Array.from({ length: size }, () => undefined);
  }

  /** A statement outside any transaction, as pg.Pool#query. */
  query(text: string, values: unknown[]): Promise<Result> {
    const lane = text.includes(LIGHT_TAG) && !this.#ended ? this.#pick() : undefined;
    return lane ? this.#send(lane, text, values) : this.pool.query(text, values);
  }

  async end(): Promise<void> {
    this.#ended = true;
    await Promise.all(this.#lanes.map((lane) => lane?.client.end().catch(() => undefined)));
  }

  /** The open lane with the fewest statements on the wire, none of them stalled. */
  #pick(): Lane | undefined {
    const now = performance.now();
    let best: Lane | undefined;
    for (let i = 0; i < this.#lanes.length; i++) {
      let lane = this.#lanes[i];
      if (!lane || lane.broken) lane = this.#lanes[i] = this.#open();
      const depth = lane.sent.length;
      if (depth === 0) return lane;
      if (depth >= MAX_DEPTH || now - lane.sent[0]! > STALL_MS) continue;
      if (!best || depth < best.sent.length) best = lane;
    }
    return best;
  }

  #open(): Lane {
    const Client = this.prepare ? PreparingClient : pg.Client;
    const client = new Client({ ...this.config, pipeline: true } as pg.ClientConfig);
    const lane: Lane = {
      client,
      open: false,
      broken: false,
      sent: [],
      corked: false,
      ready: client.connect().then(
        () => {
          lane.open = true;
        },
        (err: unknown) => {
          this.#retire(lane);
          throw err;
        },
      ),
    };
    client.on('error', () => this.#retire(lane));
    client.on('end', () => this.#retire(lane));
    return lane;
  }

  /** A lane no statement goes to any more; the next pick opens another in its place. */
  #retire(lane: Lane) {
    if (lane.broken) return;
    lane.broken = true;
    lane.client.end().catch(() => undefined);
  }

  async #send(lane: Lane, text: string, values: unknown[]): Promise<Result> {
    lane.sent.push(performance.now());
    try {
      if (!lane.open) await lane.ready;
      this.#cork(lane);
      return await lane.client.query(text, values);
    } catch (err) {
      // the server ends the connection after a FATAL error (e.g. the process terminated by an
      // administrator): nothing more may be sent on it before the socket closes
      if ((err as { severity?: string }).severity === 'FATAL') this.#retire(lane);
      throw err;
    } finally {
      lane.sent.shift();
    }
  }

  /** Holds the lane's writes until this turn of the event loop has sent all it will. */
  #cork(lane: Lane) {
    if (lane.corked) return;
    const stream = (lane.client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    lane.corked = true;
    stream.cork();
    setImmediate(() => {
      lane.corked = false;
      stream.uncork();
    });
  }
}
