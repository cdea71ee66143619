import { useAppStore } from '../../stores/app';

/** The action column sticks to the right on a desktop; on a phone it would cover half the table, so it scrolls with the rest. */
export function useActionFixed(): 'right' | undefined {
  return useAppStore((s) => s.device) === 'mobile' ? undefined : 'right';
}
