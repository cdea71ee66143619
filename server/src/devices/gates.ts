import { sql } from 'kysely';

/**
 * Barrier gates behind one interface (docs/product.md#parking-gates): a vendor's device reports a
 * plate seen at a lane (the `gateevent` method is the way in), beats its heart (`gateheartbeat`), and
 * is told what to do: open or stay shut, with the text to show and speak. A real vendor's adapter
 * sends the command over its own protocol; the simulator, the one vendor so far, keeps the last
 * command of each lane so the booth console shows what the gate would.
 *
 * A lane is a row of the one devices table, family gate, of a booth (booth_id). A gate's decision is
 * the answer to its own event, at once, so it does not wait in the command queue.
 */
export interface GateCommand {
  open: boolean;
  /** shown on the lane's display and spoken */
  content: string;
  at: Date;
}

export interface GateDevice {
  readonly vendor: string;
  /** tells the lane's gate what to do */
  command(rid: number, laneId: number, cmd: GateCommand): Promise<void>;
  /** what the lane was last told (the simulator answers it; a real device may not) */
  lastCommand(rid: number, laneId: number): GateCommand | null;
}

/** The simulator: commands are kept per lane in the process, as a gate's display keeps its last text. */
export class SimulatedGate implements GateDevice {
  readonly vendor = 'simulator';
  private readonly last = new Map<string, GateCommand>();

  command(rid: number, laneId: number, cmd: GateCommand): Promise<void> {
    this.last.set(`${rid}:${laneId}`, cmd);
    return Promise.resolve();
  }

  lastCommand(rid: number, laneId: number): GateCommand | null {
    return this.last.get(`${rid}:${laneId}`) ?? null;
  }
}

const devices = new Map<string, GateDevice>([['simulator', new SimulatedGate()]]);

/** The adapter of a lane's vendor (its device row's vendor). */
export function gateDevice(vendor: string): GateDevice {
  const d = devices.get(vendor);
  if (!d) throw new Error(`no gate adapter for vendor ${vendor}`);
  return d;
}

/** A lane's direction as the gates and the wire say it (I in, O out), from its device row's `alias`.direction (in, out). */
export const laneDirection = (alias: string) => sql<'I' | 'O'>`CASE ${sql.ref(`${alias}.direction`)} WHEN 'in' THEN 'I' ELSE 'O' END`;

/** A device row's direction of a lane's (I, O). */
export const deviceDirection = (v: unknown): 'in' | 'out' => (v === 'I' ? 'in' : 'out');
