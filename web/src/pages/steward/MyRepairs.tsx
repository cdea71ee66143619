import { Card, Tabs } from 'antd';
import { RepairTable } from './RepairList';

/** 我的工单 (/steward/myrepairs; docs/product.md#repairs): the signed-in technician's tickets to do and done. */
export default function MyRepairs() {
  return (
    <Card data-testid="myrepairs-page" styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'todo', label: <span data-testid="myrepairs-tab-todo">待办</span>, children: <RepairTable mine="todo" /> },
          { key: 'done', label: <span data-testid="myrepairs-tab-done">已办</span>, children: <RepairTable mine="done" /> },
        ]}
      />
    </Card>
  );
}
