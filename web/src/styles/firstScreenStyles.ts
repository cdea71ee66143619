/**
 * The antd components of the first screens, rendered once at build time (vite.config.ts) to write
 * their styles into style sheets: one for the sign-in page (always linked) and one for the
 * signed-in shell and home page, phone and desktop (loaded by main.tsx when there is a session).
 * Antd's style registry finds them there (by component and hash, through the sheets' cache-path
 * rule) instead of generating and inserting them in the browser during the first render. A
 * component missing here, or a style whose path changes, is simply generated in the browser as
 * before: these lists only decide what is ready early.
 */
import { createElement as h, type ReactElement, type ReactNode } from 'react';
import {
  App,
  Avatar,
  Badge,
  Breadcrumb,
  Button,
  Card,
  Col,
  ConfigProvider,
  Descriptions,
  Dropdown,
  Empty,
  Form,
  Input,
  Menu,
  Row,
  Skeleton,
  Spin,
  Statistic,
  Tag,
  Tooltip,
} from 'antd';
import { buildTheme, DEFAULT_THEME } from '../theme.ts';

// the component styles are written with CSS variables: the same for every theme colour and size
const themed = (...children: ReactNode[]) =>
  h(ConfigProvider, { theme: buildTheme(DEFAULT_THEME, 'medium'), componentSize: 'medium' }, h(App, null, ...children));

/** The sign-in page: form, inputs, button, the loading spinner. */
export function signInSample(): ReactElement {
  return themed(
    h(Form, null, h(Form.Item, { name: 'u' }, h(Input, { prefix: 'u' })), h(Form.Item, { name: 'p' }, h(Input.Password, { prefix: 'p' }))),
    h(Button, { type: 'primary' }, 'b'),
    h(Spin),
  );
}

/** The signed-in shell (top bar, menus, breadcrumbs) and the home page with its cards. */
export function consoleSample(): ReactElement {
  return themed(
    h(Menu, { mode: 'inline', theme: 'dark', items: [{ key: 'm', label: 'm' }] }),
    h(Tooltip, { title: 't' }, h('span', null, 't')),
    h(Dropdown, { menu: { items: [] } }, h('span', null, 'd')),
    h(Button, null, 'b'),
    h(Badge, { count: 1 }),
    h(Avatar),
    h(Breadcrumb, { items: [{ title: 'b' }] }),
    h(Spin),
    h(Card, { size: 'small' }, 'c'),
    h(Descriptions, { items: [{ key: 'd', label: 'd', children: 'd' }] }),
    h(Tag, null, 't'),
    h(Row, null, h(Col, { xs: 24 }, 'c')),
    h(Skeleton, { active: true }),
    h(Statistic, { value: 1 }),
    h(Empty),
  );
}
