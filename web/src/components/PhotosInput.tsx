import { useRef, useState } from 'react';
import { Image, Space, Spin } from 'antd';
import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { IMAGE_MAX_BYTES } from '@wuye/contract/files';
import { call } from '../api/client';
import { toastError } from '../api/feedback';
import { fileToBase64 } from '../utils/files';
import './photos.css';

/**
 * A form's photos (现场照片, 处理前/处理后): thumbnails with a remove cross and an add tile while
 * fewer than `max` are kept. Each picked image is sent at once (imageupload); the value is the list
 * of addresses the server answered, the form sends it as is (contract `photoList`).
 */
export function PhotosInput({
  value,
  onChange,
  max = 9,
  testId = 'photos',
}: {
  value?: string[];
  onChange?: (urls: string[]) => void;
  max?: number;
  testId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const urls = value ?? [];
  const add = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const picked = [...files].slice(0, max - urls.length);
    if (files.length > picked.length) toastError(`最多上传${max}张图片`);
    const tooBig = picked.find((f) => f.size > IMAGE_MAX_BYTES);
    if (tooBig) {
      toastError('图片不能超过2MB');
      return;
    }
    setBusy(true);
    const added: string[] = [];
    try {
      for (const file of picked) {
        const image = await call('imageupload', { file_base64: await fileToBase64(file), filename: file.name });
        added.push(image.url);
      }
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
      if (added.length > 0) onChange?.([...urls, ...added]);
    }
  };
  return (
    <div className="photos-input" data-testid={testId}>
      <Image.PreviewGroup>
        {urls.map((url, i) => (
          <div className="photos-tile" key={url}>
            <Image src={url} width={80} height={80} alt={`照片${i + 1}`} />
            <button
              type="button"
              className="photos-remove"
              aria-label="删除照片"
              data-testid={`${testId}-remove-${i}`}
              onClick={() => onChange?.(urls.filter((u) => u !== url))}
            >
              <CloseOutlined />
            </button>
          </div>
        ))}
      </Image.PreviewGroup>
      {urls.length < max && (
        <button
          type="button"
          className="photos-tile photos-add"
          onClick={() => input.current?.click()}
          disabled={busy}
          data-testid={`${testId}-add`}
        >
          {busy ? <Spin size="small" /> : <PlusOutlined />}
          <span>{busy ? '上传中' : `上传 ${urls.length}/${max}`}</span>
        </button>
      )}
      <input
        ref={input}
        type="file"
        hidden
        // antd's form styles would show a bare file input; the add tile opens it
        style={{ display: 'none' }}
        multiple={max > 1}
        accept="image/png,image/jpeg,image/gif,image/webp"
        data-testid={`${testId}-file`}
        onChange={(e) => void add(e.target.files)}
      />
    </div>
  );
}

/** Photos kept on a record, as thumbnails that open the viewer; a dash when there are none. */
export function PhotoGallery({ urls, size = 72, testId }: { urls: readonly string[] | null | undefined; size?: number; testId?: string }) {
  if (!urls || urls.length === 0) return <span data-testid={testId}>-</span>;
  return (
    <Space wrap size={8} data-testid={testId}>
      <Image.PreviewGroup>
        {urls.map((url, i) => (
          <Image key={url} src={url} width={size} height={size} alt={`照片${i + 1}`} style={{ objectFit: 'cover', borderRadius: 4 }} />
        ))}
      </Image.PreviewGroup>
    </Space>
  );
}
