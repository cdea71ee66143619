import { useState, type ReactNode } from 'react';
import { Form, Input, Modal } from 'antd';
import { noticeSuccess } from '../api/feedback';

/**
 * A confirmation that asks for one line of text (a reason, a corrected value) and sends it: the
 * text is required, the answer's message is shown, and a refusal keeps the dialog open (the client
 * shows why). `onDone` gets the answer's data once it succeeded.
 */
export function TextPromptModal<T>({
  open,
  title,
  label,
  required,
  placeholder,
  maxLength = 100,
  danger,
  testIds,
  children,
  send,
  onDone,
  onCancel,
}: {
  open: boolean;
  title: string;
  label: string;
  /** the message when left empty */
  required: string;
  placeholder?: string;
  maxLength?: number;
  danger?: boolean;
  /** the input's and the OK button's */
  testIds: { text: string; ok: string };
  /** shown above the field */
  children?: ReactNode;
  send: (text: string) => Promise<{ return_msg: string; data: T }>;
  onDone: (data: T) => void;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<{ text: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    // an empty field shows its message under it; nothing is sent
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const text = values.text;
    setBusy(true);
    try {
      const answer = await send(text.trim());
      noticeSuccess(answer.return_msg);
      onDone(answer.data);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      onOk={() => void submit()}
      okButtonProps={{ danger, loading: busy, 'data-testid': testIds.ok } as never}
      destroyOnHidden
    >
      {children}
      <Form form={form} preserve={false}>
        <Form.Item name="text" label={label} rules={[{ required: true, whitespace: true, message: required }]}>
          <Input maxLength={maxLength} placeholder={placeholder} data-testid={testIds.text} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
