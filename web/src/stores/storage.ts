/** Safe wrappers around web storage (absent in node tests, may throw in private modes). */
function store(kind: 'session' | 'local'): Storage | null {
  try {
    if (typeof window === 'undefined') return null;
    return kind === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

export function readJson<T>(kind: 'session' | 'local', key: string, fallback: T): T {
  const s = store(kind);
  if (!s) return fallback;
  try {
    const raw = s.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function writeJson(kind: 'session' | 'local', key: string, value: unknown): void {
  const s = store(kind);
  if (!s) return;
  try {
    if (value === undefined || value === null) s.removeItem(key);
    else s.setItem(key, JSON.stringify(value));
  } catch {
    /* quota or private mode: the state just is not kept */
  }
}

export function readText(kind: 'session' | 'local', key: string): string {
  try {
    return store(kind)?.getItem(key) ?? '';
  } catch {
    return '';
  }
}

export function writeText(kind: 'session' | 'local', key: string, value: string | null): void {
  const s = store(kind);
  if (!s) return;
  try {
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    /* ignore */
  }
}
