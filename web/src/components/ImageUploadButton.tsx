import { useRef, useState } from 'react';
import { Button } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { IMAGE_MAX_BYTES } from '@wuye/contract/files';
import { call } from '../api/client';
import { toastError } from '../api/feedback';
import { fileToBase64 } from '../utils/files';

/** 上传图片: sends a picked image (imageupload) and hands its address to the field beside it. */
export default function ImageUploadButton({ onUploaded, testId }: { onUploaded: (url: string) => void; testId?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (file: File | undefined) => {
    if (!file) return;
    // said here at once; the server refuses it the same way
    if (file.size > IMAGE_MAX_BYTES) {
      toastError('图片不能超过2MB');
      return;
    }
    setBusy(true);
    try {
      const image = await call('imageupload', { file_base64: await fileToBase64(file), filename: file.name });
      onUploaded(image.url);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <>
      <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid={testId}>
        上传图片
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept="image/png,image/jpeg,image/gif,image/webp"
        data-testid={testId ? `${testId}-file` : undefined}
        onChange={(e) => void upload(e.target.files?.[0])}
      />
    </>
  );
}
