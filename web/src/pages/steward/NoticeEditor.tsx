import { useEffect, useRef, useState } from 'react';
import { Button, Input, Modal, Space, Tooltip } from 'antd';
import {
  BoldOutlined,
  FontSizeOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { IMAGE_MAX_BYTES } from '@wuye/contract/files';
import { call } from '../../api/client';
import { toastError } from '../../api/feedback';
import { fileToBase64 } from '../../utils/files';
import './notices.css';

/**
 * The notice body's editor (docs/product.md#notices): a contentEditable area with a small toolbar
 * (bold, italic, heading, lists, link, an uploaded image). It edits HTML as the browser writes it;
 * the server keeps only its allow-list (modules/steward/noticeHtml.ts), so what is saved is what
 * the owners see. A form input: value and onChange are the HTML.
 */
export function NoticeEditor({ value, onChange }: { value?: string; onChange?: (html: string) => void }) {
  const area = useRef<HTMLDivElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const saved = useRef<Range | null>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [href, setHref] = useState('https://');
  const [busy, setBusy] = useState(false);

  // the form's value enters the area when it differs from what the area holds (loading a notice),
  // never while typing (that would move the caret)
  useEffect(() => {
    const el = area.current;
    if (el && (value ?? '') !== el.innerHTML) el.innerHTML = value ?? '';
  }, [value]);

  const emit = () => onChange?.(area.current?.innerHTML ?? '');
  const keepSelection = () => {
    const sel = window.getSelection();
    if (sel && sel.rangeCount > 0 && area.current?.contains(sel.anchorNode)) saved.current = sel.getRangeAt(0).cloneRange();
  };
  const restoreSelection = () => {
    const sel = window.getSelection();
    // the toolbar takes no focus: a selection still in the area is the one to act on
    if (sel && sel.rangeCount > 0 && area.current?.contains(sel.anchorNode)) return;
    area.current?.focus();
    if (saved.current && sel) {
      sel.removeAllRanges();
      sel.addRange(saved.current);
    }
  };
  const exec = (command: string, arg?: string) => {
    restoreSelection();
    document.execCommand(command, false, arg);
    keepSelection();
    emit();
  };

  const addImage = async (files: FileList | null) => {
    const f = files?.[0];
    if (!f) return;
    if (f.size > IMAGE_MAX_BYTES) {
      toastError('图片不能超过2MB');
      return;
    }
    setBusy(true);
    try {
      const image = await call('imageupload', { file_base64: await fileToBase64(f), filename: f.name });
      exec('insertImage', image.url);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
      if (file.current) file.current.value = '';
    }
  };

  const tool = (title: string, icon: React.ReactNode, run: () => void, testId: string) => (
    <Tooltip title={title}>
      <Button
        size="small"
        type="text"
        icon={icon}
        aria-label={title}
        data-testid={testId}
        // keep the selection in the area: the button takes no focus
        onMouseDown={(e) => e.preventDefault()}
        onClick={run}
      />
    </Tooltip>
  );

  return (
    <div className="notice-editor" data-testid="notice-editor">
      <Space size={2} wrap className="notice-editor-bar">
        {tool('加粗', <BoldOutlined />, () => exec('bold'), 'editor-bold')}
        {tool('斜体', <ItalicOutlined />, () => exec('italic'), 'editor-italic')}
        {tool('标题', <FontSizeOutlined />, () => exec('formatBlock', 'h3'), 'editor-heading')}
        {tool('正文', <span style={{ fontSize: 12 }}>P</span>, () => exec('formatBlock', 'p'), 'editor-paragraph')}
        {tool('项目列表', <UnorderedListOutlined />, () => exec('insertUnorderedList'), 'editor-ul')}
        {tool('编号列表', <OrderedListOutlined />, () => exec('insertOrderedList'), 'editor-ol')}
        {tool(
          '链接',
          <LinkOutlined />,
          () => {
            keepSelection();
            setHref('https://');
            setLinkOpen(true);
          },
          'editor-link',
        )}
        {tool('插入图片', <PictureOutlined />, () => (keepSelection(), file.current?.click()), 'editor-image')}
        {busy && <span className="notice-editor-busy">图片上传中…</span>}
      </Space>
      <div
        ref={area}
        className="notice-editor-area notice-body"
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        aria-label="公告内容"
        data-testid="notice-editor-area"
        onInput={emit}
        onBlur={() => (keepSelection(), emit())}
        onKeyUp={keepSelection}
        onMouseUp={keepSelection}
      />
      <input
        ref={file}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        hidden
        onChange={(e) => void addImage(e.target.files)}
      />
      <Modal
        title="插入链接"
        open={linkOpen}
        onCancel={() => setLinkOpen(false)}
        onOk={() => {
          setLinkOpen(false);
          if (/^https?:\/\/\S+$/i.test(href)) exec('createLink', href);
          else toastError('链接须以 http:// 或 https:// 开头');
        }}
        destroyOnHidden
      >
        <Input value={href} onChange={(e) => setHref(e.target.value)} placeholder="https://" data-testid="editor-link-input" />
      </Modal>
    </div>
  );
}
