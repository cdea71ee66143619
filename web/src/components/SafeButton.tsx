import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Button } from 'antd';
import type { ButtonProps } from 'antd';
import { LIMITS } from '@wuye/contract/codes';
import { createClickGuard } from '../utils/clickGuard';

/**
 * Prevent-double-click (docs/product.md#double-click) as a hook: the wrapped handler runs at most once per `ms`
 * (3000 by default) and `locked` tells the button to stay disabled meanwhile.
 */
export function usePreventDoubleClick<A extends unknown[]>(
  handler: (...args: A) => unknown,
  ms: number = LIMITS.preventDoubleClickMs,
): [(...args: A) => void, boolean] {
  const [guard] = useState(() => createClickGuard(ms));
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const run = useCallback(
    (...args: A) => {
      if (!guard.tryClick()) return;
      setLocked(true);
      timer.current = setTimeout(() => setLocked(false), ms);
      handler(...args);
    },
    [guard, handler, ms],
  );
  return [run, locked];
}

/** A button disabled for 3000 ms after each click (docs/product.md#constants). */
export default function SafeButton({ onClick, preventMs, disabled, ...rest }: ButtonProps & { preventMs?: number }) {
  const [run, locked] = usePreventDoubleClick((e: MouseEvent<HTMLElement>) => onClick?.(e as never), preventMs);
  return <Button {...rest} disabled={disabled || locked} onClick={run} />;
}
