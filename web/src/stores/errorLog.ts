import { create } from 'zustand';

/** Error log entry (docs/product.md#entities): err, vm, info, url. */
export interface ErrorLogEntry {
  err: { message: string; stack: string };
  /** the component (React: the component stack) */
  vm: string;
  info: string;
  url: string;
  time: string;
}

interface ErrorLogState {
  logs: ErrorLogEntry[];
  add: (entry: ErrorLogEntry) => void;
  clear: () => void;
}

const MAX_LOGS = 50;

export const useErrorLog = create<ErrorLogState>()((set, get) => ({
  logs: [],
  add: (entry) => set({ logs: [...get().logs, entry].slice(-MAX_LOGS) }),
  clear: () => set({ logs: [] }),
}));

/** The error log is active only in production builds (docs/product.md#errors). */
export const errorLogEnabled = (): boolean => import.meta.env.PROD;

export function logError(error: unknown, info: string, vm = ''): void {
  if (!errorLogEnabled()) return;
  const e = error instanceof Error ? error : new Error(typeof error === 'string' ? error : JSON.stringify(error));
  useErrorLog.getState().add({
    err: { message: e.message, stack: e.stack ?? '' },
    vm,
    info,
    url: typeof window === 'undefined' ? '' : window.location.href,
    time: new Date().toISOString(),
  });
}
