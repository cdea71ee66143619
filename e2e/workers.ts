/** How many journey files run at once (`E2E_WORKERS`, 2 by default), each worker on a server of its own. */
export function journeyWorkers(): number {
  return Math.max(1, Number(process.env.E2E_WORKERS) || 2);
}
