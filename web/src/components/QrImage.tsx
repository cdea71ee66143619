import { useEffect, useState } from 'react';

/** A QR code image of `text` (pay code_url, app download addresses); the encoder loads with the first one shown. */
export default function QrImage({ text, size = 160, testId }: { text: string; size?: number; testId?: string }) {
  const [state, setState] = useState<{ text: string; url: string }>({ text: '', url: '' });
  useEffect(() => {
    let alive = true;
    if (!text) return;
    import('qrcode')
      .then((m) => m.default.toDataURL(text, { width: size, margin: 1 }))
      .then((url) => {
        if (alive) setState({ text, url });
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [text, size]);
  const src = state.text === text ? state.url : '';
  return (
    <div style={{ width: size, height: size, display: 'inline-block', background: '#fff' }} data-testid={testId}>
      {src && <img src={src} width={size} height={size} alt="QR" />}
    </div>
  );
}
