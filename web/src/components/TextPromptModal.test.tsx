import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TextPromptModal } from './TextPromptModal';

const notices = vi.hoisted(() => [] as string[]);
vi.mock('../api/feedback', () => ({ noticeSuccess: (m: string) => notices.push(m) }));

function open(send: (text: string) => Promise<{ return_msg: string; data: number }>, onDone = vi.fn()) {
  render(
    <TextPromptModal
      open
      title="人工放行 沪A12345"
      label="放行原因"
      required="请填写人工放行原因"
      testIds={{ text: 'reason', ok: 'reason-ok' }}
      send={send}
      onDone={onDone}
      onCancel={() => undefined}
    />,
  );
  return onDone;
}

describe('TextPromptModal', () => {
  it('asks for the text before sending anything, blanks included', async () => {
    const send = vi.fn();
    open(send);
    fireEvent.change(screen.getByTestId('reason'), { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('reason-ok'));
    expect(await screen.findByText('请填写人工放行原因')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the trimmed text, shows the answer and hands its data on', async () => {
    const send = vi.fn(async (text: string) => ({ return_msg: `已放行：${text}`, data: 7 }));
    const onDone = open(send);
    fireEvent.change(screen.getByTestId('reason'), { target: { value: ' 车主忘带手机 ' } });
    fireEvent.click(screen.getByTestId('reason-ok'));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(7));
    expect(send).toHaveBeenCalledWith('车主忘带手机');
    expect(notices).toContain('已放行：车主忘带手机');
  });

  it('stays open when the server refuses', async () => {
    const onDone = open(() => Promise.reject(new Error('refused')));
    fireEvent.change(screen.getByTestId('reason'), { target: { value: '补缴' } });
    fireEvent.click(screen.getByTestId('reason-ok'));
    await waitFor(() => expect(screen.getByTestId('reason-ok').className).not.toMatch(/loading/));
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.getByTestId('reason')).toBeTruthy();
  });
});
