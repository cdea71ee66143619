import { useCallback, useState } from 'react';
import type { SizeType } from 'antd/es/config-provider/SizeContext';
import { readJson, writeJson } from '../../stores/storage';
import { useUser } from '../../stores/user';

export interface TableSettings {
  /** keys of the columns the user has hidden */
  hidden: string[];
  size: SizeType;
}

const DEFAULTS: TableSettings = { hidden: [], size: 'medium' };

/** Column settings and density of a resource's table, kept per account in this browser. */
export function useTableSettings(resource: string): [TableSettings, (s: Partial<TableSettings>) => void] {
  const account = useUser((s) => s.sysUser?.username || s.name || 'anon');
  const key = `wuye.table.${account}.${resource}`;
  const [settings, setSettings] = useState<TableSettings>(() => ({ ...DEFAULTS, ...readJson<Partial<TableSettings>>('local', key, {}) }));
  const update = useCallback(
    (s: Partial<TableSettings>) =>
      setSettings((old) => {
        const next = { ...old, ...s };
        writeJson('local', key, next);
        return next;
      }),
    [key],
  );
  return [settings, update];
}
