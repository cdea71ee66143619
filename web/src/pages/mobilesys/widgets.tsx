import type { ComponentType, CSSProperties } from 'react';
import {
  AppstoreOutlined,
  CalendarOutlined,
  CarOutlined,
  CreditCardOutlined,
  HomeOutlined,
  KeyOutlined,
  MessageOutlined,
  NotificationOutlined,
  PhoneOutlined,
  ReadOutlined,
  ShopOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Form, Input, Select } from 'antd';
import { APP_SERVICES, APP_SERVICE_CODES } from '@wuye/contract/mobilesys/apply';
import { MENU_ICON } from '@wuye/contract/mobilesys/content';
import { enumOptions } from '@wuye/contract/kit/resource';
import { useSmallList } from '../../components/resource';
import { PhotosInput } from '../../components/PhotosInput';

/** The icons of MENU_ICON by name (listed, so the bundle holds only these). */
const ICONS: Record<string, ComponentType<{ style?: CSSProperties }>> = {
  ToolOutlined,
  MessageOutlined,
  WalletOutlined,
  TeamOutlined,
  CalendarOutlined,
  NotificationOutlined,
  CarOutlined,
  KeyOutlined,
  CreditCardOutlined,
  ThunderboltOutlined,
  ShopOutlined,
  PhoneOutlined,
  HomeOutlined,
  ReadOutlined,
  AppstoreOutlined,
};

/** A menu entry's icon as the app draws it. */
export function MenuIcon({ name, size = 18 }: { name: string; size?: number }) {
  const Icon = ICONS[name] ?? AppstoreOutlined;
  return <Icon style={{ fontSize: size }} />;
}

/** The icon picker of a menu entry: each icon drawn beside its word. */
export function MenuIconSelect(props: { value?: string; onChange?: (v: string) => void; 'data-testid'?: string }) {
  return (
    <Select
      {...props}
      placeholder="选择图标"
      options={enumOptions(MENU_ICON).map((o) => ({
        value: o.value,
        label: (
          <span>
            <MenuIcon name={o.value} size={14} /> {o.label}
          </span>
        ),
      }))}
    />
  );
}

/** A cover: one uploaded image, kept as its address. */
export function CoverInput({
  value,
  onChange,
  testId = 'graphic-cover',
}: {
  value?: string;
  onChange?: (v: string) => void;
  testId?: string;
}) {
  return <PhotosInput value={value ? [value] : []} onChange={(urls) => onChange?.(urls[0] ?? '')} max={1} testId={testId} />;
}

/**
 * The target of a link, by the type chosen in the form's `typeField`: a built-in function, an
 * article (its id), an https address, or a mini program's appid:path.
 */
export function LinkTargetInput({
  typeField,
  value,
  onChange,
  testId,
}: {
  typeField: string;
  value?: string;
  onChange?: (v: string) => void;
  testId: string;
}) {
  const form = Form.useFormInstance();
  const type = Form.useWatch(typeField, form) as string | undefined;
  const articles = useSmallList('graphic_small_list', type === 'article' ? {} : null);
  if (type === 'none') return <Input disabled placeholder="不跳转" />;
  if (type === 'service') {
    return (
      <Select
        value={value || undefined}
        onChange={(v: string) => onChange?.(v)}
        placeholder="选择内置功能"
        data-testid={testId}
        options={APP_SERVICE_CODES.map((code) => ({ value: code, label: APP_SERVICES[code].title }))}
      />
    );
  }
  if (type === 'article') {
    return (
      <Select
        value={value ? Number(value) : undefined}
        onChange={(v: number) => onChange?.(String(v))}
        placeholder="选择图文"
        showSearch
        optionFilterProp="label"
        data-testid={testId}
        options={articles.options.map((o) => ({ value: o.value, label: o.label }))}
      />
    );
  }
  return (
    <Input
      value={value}
      onChange={(e) => onChange?.(e.target.value)}
      placeholder={type === 'mini' ? 'wx1234567890abcdef:pages/index/index' : 'https://'}
      data-testid={testId}
    />
  );
}
