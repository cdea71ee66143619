import { useState } from 'react';
import { App, Dropdown, Tooltip } from 'antd';
import { FontSizeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SIZES, useAppStore, type Size } from '../stores/app';

/** The size now and the choice of another, which says it switched. */
export function useSizeChoice(): { size: Size; choose: (size: Size) => void } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const size = useAppStore((s) => s.size);
  const setSize = useAppStore((s) => s.setSize);
  return {
    size,
    choose: (next) => {
      setSize(next);
      void message.success(t('size.switched'));
    },
  };
}

/** Size selector (docs/product.md#shell-size): default, medium, small, mini; kept in a cookie. */
export default function SizeSelect() {
  const { t } = useTranslation();
  const { size, choose } = useSizeChoice();
  // the tooltip leaves while the list is open: below the icon it would lie over the first size
  const [listOpen, setListOpen] = useState(false);
  return (
    <Dropdown
      trigger={['click']}
      onOpenChange={setListOpen}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s, label: <span data-testid={`size-option-${s}`}>{t(`size.${s}`)}</span> })),
        onClick: ({ key }) => choose(key as Size),
      }}
    >
      <span className="navbar-icon-wrap" data-testid="size-select" data-size={size}>
        <Tooltip title={t('navbar.size')} placement="left" open={listOpen ? false : undefined}>
          <FontSizeOutlined className="navbar-icon" />
        </Tooltip>
      </span>
    </Dropdown>
  );
}
