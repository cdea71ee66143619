import { Suspense } from 'react';
import { Card, Spin, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useRoles } from '../../../components/resource';
import { setcrmsysTabs } from './setcrmsysTabs';

/**
 * /crm/setcrmsys (客户合同设置; docs/product.md#crm-sales): one tab per part of the area
 * (setcrmsysTabs.ts), the reader's tabs only; the tab chosen stays in the address (?tab=).
 */
export default function SetCrmSys() {
  const can = useRoles();
  const [params, setParams] = useSearchParams();
  const tabs = setcrmsysTabs.filter((t) => can(t.roles));
  const active = tabs.find((t) => t.key === params.get('tab'))?.key ?? tabs[0]?.key;
  return (
    <Card variant="borderless" data-testid="setcrmsys-page">
      <Tabs
        activeKey={active}
        onChange={(tab) => setParams({ tab }, { replace: true })}
        destroyOnHidden
        items={tabs.map((t) => ({
          key: t.key,
          label: <span data-testid={`setcrmsys-tab-${t.key}`}>{t.label}</span>,
          children: (
            <Suspense fallback={<Spin />}>
              <t.component />
            </Suspense>
          ),
        }))}
      />
    </Card>
  );
}
