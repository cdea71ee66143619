import { App, Dropdown, Tooltip } from 'antd';
import { FontSizeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SIZES, useAppStore, type Size } from '../stores/app';

/** Size selector (docs/product.md#shell-size): default, medium, small, mini; kept in a cookie. */
export default function SizeSelect() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const size = useAppStore((s) => s.size);
  const setSize = useAppStore((s) => s.setSize);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s, label: <span data-testid={`size-option-${s}`}>{t(`size.${s}`)}</span> })),
        onClick: ({ key }) => {
          setSize(key as Size);
          void message.success(t('size.switched'));
        },
      }}
    >
      <span className="navbar-icon-wrap" data-testid="size-select" data-size={size}>
        <Tooltip title={t('navbar.size')}>
          <FontSizeOutlined className="navbar-icon" />
        </Tooltip>
      </span>
    </Dropdown>
  );
}
