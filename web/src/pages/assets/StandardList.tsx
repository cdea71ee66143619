import { Select } from 'antd';
import { maintainStandard, type MaintainStandardItem } from '@wuye/contract/assets/maintain';
import { ResourcePage, type Widgets } from '../../components/resource';

/** The check items: typed one by one (Enter adds one), in the order they are checked. */
function ItemsInput(props: { value?: string[]; onChange?: (v: string[]) => void; 'data-testid'?: string }) {
  return (
    <Select
      mode="tags"
      open={false}
      suffixIcon={null}
      placeholder="输入一个检查项后按回车，可输入多项"
      value={props.value ?? []}
      onChange={(v: string[]) => props.onChange?.(v.map((s) => s.trim()).filter(Boolean))}
      tokenSeparators={['\n', '；', ';']}
      data-testid={props['data-testid']}
    />
  );
}

const widgets = { items: ItemsInput } as unknown as Widgets;

/**
 * /carpark/maintainstandard (维保标准; docs/product.md#equipment-ledger): the standards a plan
 * checks, each a list of check items judged passed or failed on every task.
 */
export default function StandardList() {
  return (
    <ResourcePage<MaintainStandardItem>
      resource={maintainStandard}
      title="维保标准"
      widgets={widgets}
      extraColumns={[
        {
          key: 'items_text',
          title: '检查项',
          width: 320,
          ellipsis: true,
          render: (_: unknown, r: MaintainStandardItem) => r.items.map((t, i) => `${i + 1}. ${t}`).join('  '),
        },
      ]}
    />
  );
}
