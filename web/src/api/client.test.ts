import { describe, expect, it } from 'vitest';
import { classifyAnswer } from './client';

describe('answer handling (spec 7, 8)', () => {
  it('SUCCESS passes', () => {
    expect(classifyAnswer({ return_code: 'SUCCESS', return_msg: 'ok', data: null })).toEqual({ ok: true });
    expect(classifyAnswer({ result_code: 'SUCCESS', data: null })).toEqual({ ok: true });
  });
  it('AUTH_END forces renewal silently', () => {
    expect(classifyAnswer({ return_code: 'AUTH_END', return_msg: '已到期', data: null })).toMatchObject({ ok: false, kind: 'auth_end' });
  });
  it('50008/50012/50014 offer to log in again', () => {
    for (const code of ['50008', '50012', '50014']) {
      expect(classifyAnswer({ return_code: code, return_msg: 'x', data: null })).toMatchObject({ kind: 'relogin', code });
    }
  });
  it('other failures carry return_msg or error', () => {
    expect(classifyAnswer({ return_code: 'FAIL', return_msg: '失败了', data: null })).toMatchObject({ kind: 'fail', message: '失败了' });
    expect(classifyAnswer({ return_code: 'NO_PERMISSION', return_msg: '', data: null })).toMatchObject({ kind: 'fail', message: 'error' });
    expect(classifyAnswer(null)).toMatchObject({ kind: 'fail', message: 'error' });
  });
  it('result_code answers show result_msg', () => {
    expect(classifyAnswer({ result_code: 'FAIL', result_msg: '余额不足', data: null })).toMatchObject({
      kind: 'result',
      message: '余额不足',
    });
    expect(classifyAnswer({ return_code: 'SUCCESS', result_code: 'FAIL', result_msg: 'r', data: null })).toMatchObject({ kind: 'result' });
  });
});
