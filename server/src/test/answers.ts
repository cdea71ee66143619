import { RC } from '@wuye/contract';
import { expect } from 'vitest';

/** A call's answer as a test reads it (TestServer.call). */
export type Answer = { return_code: string; return_msg: string; data?: any };

/** The call succeeded: its data. */
export function ok(a: Answer) {
  expect(a.return_code, a.return_msg).toBe(RC.SUCCESS);
  return a.data;
}

/** The call was refused with a message matching `msg` (a failing check shows the answer's data). */
export function refused(a: Answer, msg: string | RegExp): void {
  expect(a.return_code, JSON.stringify(a.data)).toBe(RC.FAIL);
  expect(a.return_msg).toMatch(msg);
}
