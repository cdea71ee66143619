import {
  BookOutlined,
  FileTextOutlined,
  GlobalOutlined,
  LinkOutlined,
  MailOutlined,
  PhoneOutlined,
  ShopOutlined,
  ToolOutlined,
} from '@ant-design/icons';

/** The icons a common link may show (LINK_ICON's names): the top bar's menu and the link pages. */
export const LINK_ICONS: Record<string, typeof LinkOutlined> = {
  LinkOutlined,
  GlobalOutlined,
  FileTextOutlined,
  BookOutlined,
  ShopOutlined,
  ToolOutlined,
  PhoneOutlined,
  MailOutlined,
};

export function LinkIcon({ name }: { name: string }) {
  const Icon = LINK_ICONS[name] ?? LinkOutlined;
  return <Icon />;
}
