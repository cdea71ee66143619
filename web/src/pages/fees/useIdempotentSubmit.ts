import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { newIdempotencyKey } from './money';

/**
 * One money-moving attempt = one idempotency key. A retry of the same attempt (the network
 * failed, so the server may have paid) sends the same key, and the server pays once; success,
 * a refusal (already paid, short amount) or `newAttempt()` (the inputs changed) starts afresh.
 */
export function useIdempotentSubmit() {
  const keyRef = useRef<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const newAttempt = useCallback(() => {
    keyRef.current = null;
  }, []);
  /** Sends with the attempt's key; answers the result, or undefined when the call failed (already shown). */
  const submit = useCallback(async <T>(send: (idempotencyKey: string) => Promise<T>): Promise<T | undefined> => {
    keyRef.current ??= newIdempotencyKey();
    setSubmitting(true);
    try {
      const result = await send(keyRef.current);
      keyRef.current = null;
      return result;
    } catch (err) {
      if (err instanceof ApiError && err.code !== 'NETWORK') keyRef.current = null;
      return undefined;
    } finally {
      setSubmitting(false);
    }
  }, []);
  return { submitting, submit, newAttempt };
}
