import { AuditOutlined, FileDoneOutlined, HourglassOutlined, SettingOutlined } from '@ant-design/icons';
import { INVOICE_ROLES } from '@wuye/contract/invoice/roles';
import type { AppRoute } from '../../router/types';
import { lazyPage } from '../../router/lazyPage';

const InvoiceList = lazyPage(() => import('./InvoiceList'));
const InvoiceWaitList = lazyPage(() => import('./InvoiceWaitList'));
const InvoiceSet = lazyPage(() => import('./InvoiceSet'));

/** Route titles of the invoice area, keyed like 'route.<name>' without the prefix. */
export const invoiceTitles = {
  'zh-CN': { invoice: '发票', invoicelist: '已开发票', invoicewaitlist: '待开票', invoiceset: '开票设置' },
  en: { invoice: 'Invoices', invoicelist: 'Issued invoices', invoicewaitlist: 'To invoice', invoiceset: 'Invoice settings' },
  es: { invoice: 'Facturas', invoicelist: 'Facturas emitidas', invoicewaitlist: 'Por facturar', invoiceset: 'Ajustes de facturación' },
};

const staff = [...INVOICE_ROLES.staff];
const apply = [...INVOICE_ROLES.apply];

/** /invoice (docs/product.md#route-table): VAT e-invoices for what owners paid. */
export const invoiceRoutes: AppRoute[] = [
  {
    path: '/invoice',
    redirect: '/invoice/invoicewaitlist',
    meta: { title: 'route.invoice', icon: AuditOutlined, roles: apply },
    children: [
      {
        path: 'invoicewaitlist',
        component: InvoiceWaitList,
        meta: { title: 'route.invoicewaitlist', icon: HourglassOutlined, roles: apply, keepAlive: true },
      },
      {
        path: 'invoicelist',
        component: InvoiceList,
        meta: { title: 'route.invoicelist', icon: FileDoneOutlined, roles: apply, keepAlive: true },
      },
      { path: 'invoiceset', component: InvoiceSet, meta: { title: 'route.invoiceset', icon: SettingOutlined, roles: staff } },
    ],
  },
];
