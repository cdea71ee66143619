import {
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  DollarOutlined,
  FileImageOutlined,
  FileTextOutlined,
  HomeOutlined,
  ProfileOutlined,
  RollbackOutlined,
  SolutionOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { CONTRACT_READERS } from '@wuye/contract/crm/contracts';
import { CRM_ROLES } from '@wuye/contract/crm/roles';
import type { AppRoute } from '../../../router/types';
import { lazyPage } from '../../../router/lazyPage';

const ContractList = lazyPage(() => import('./ContractList'));
const OtherContracts = lazyPage(() => import('./OtherContracts'));
const ContractForm = lazyPage(() => import('./ContractForm'));
const ContractShow = lazyPage(() => import('./ContractShow'));
const AuditList = lazyPage(() => import('./AuditList'));
const AuditPage = lazyPage(() => import('./AuditPage'));
const AuditInfo = lazyPage(() => import('./AuditInfo'));
const Renewals = lazyPage(() => import('./Renewals'));
const Progress = lazyPage(() => import('./Progress'));
const Monthly = lazyPage(() => import('./Monthly'));
const RefundList = lazyPage(() => import('./RefundList'));
const FileUpload = lazyPage(() => import('./FileUpload'));
const FileList = lazyPage(() => import('./FileList'));
const RentRoom = lazyPage(() => import('./RentRoom'));
const SalesTable = lazyPage(() => import('./SalesTable'));

/** Route titles of the room-sales and other contracts. */
export const contractTitles = {
  'zh-CN': {
    crm_contracts: '房屋合同',
    roomsaleslist: '合同列表',
    addroomsales: '新增合同',
    editroomsales: '编辑合同',
    roomshow: '合同详情',
    other_contracts: '其他合同',
    contract_audit_list: '合同审批',
    contract_audit: '审批合同',
    contract_audit_info: '审批记录',
    xzroomsales: '合同续签',
    contractcolprogress: '回款进度',
    contractmonthly: '签约回款月报',
    refund_list: '合同退款',
    uploadimg: '上传附件',
    uploadimglist: '合同附件',
    rentroom: '出租出售房源',
    salestable: '销控表',
  },
  en: {
    crm_contracts: 'Contracts',
    roomsaleslist: 'Contracts',
    addroomsales: 'New contract',
    editroomsales: 'Edit contract',
    roomshow: 'Contract',
    other_contracts: 'Other contracts',
    contract_audit_list: 'Contract approval',
    contract_audit: 'Approve contract',
    contract_audit_info: 'Approval trail',
    xzroomsales: 'Renewals',
    contractcolprogress: 'Collection progress',
    contractmonthly: 'Signed and collected by month',
    refund_list: 'Contract refunds',
    uploadimg: 'Upload attachments',
    uploadimglist: 'Attachments',
    rentroom: 'Units for sale or rent',
    salestable: 'Sales control table',
  },
};

const read = [...CONTRACT_READERS];
const write = [...CRM_ROLES.contracts];
const back = '/crm/roomsaleslist';
const hidden = (path: string, component: AppRoute['component'], roles: string[], activeMenu = back): AppRoute => ({
  path: `/crm/${path}`,
  component,
  hidden: true,
  meta: { title: `route.${path}`, roles, activeMenu, noCache: true },
});

/** /crm's 房屋合同 sub-menu (docs/product.md#crm-contracts); the forms, details and the sales table hidden. */
export const contractRoutes: AppRoute[] = [
  {
    path: '/crm/contracts',
    redirect: back,
    meta: { title: 'route.crm_contracts', icon: SolutionOutlined, roles: read },
    children: [
      { path: back, component: ContractList, meta: { title: 'route.roomsaleslist', icon: FileTextOutlined, roles: read, keepAlive: true } },
      {
        path: '/crm/contract_audit_list',
        component: AuditList,
        meta: { title: 'route.contract_audit_list', icon: AuditOutlined, roles: read, keepAlive: true },
      },
      {
        path: '/crm/contractcolprogress',
        component: Progress,
        meta: { title: 'route.contractcolprogress', icon: DollarOutlined, roles: read, keepAlive: true },
      },
      { path: '/crm/contractmonthly', component: Monthly, meta: { title: 'route.contractmonthly', icon: BarChartOutlined, roles: read } },
      { path: '/crm/rentroom', component: RentRoom, meta: { title: 'route.rentroom', icon: HomeOutlined, roles: read, keepAlive: true } },
      {
        path: '/crm/xzroomsales',
        component: Renewals,
        meta: { title: 'route.xzroomsales', icon: SyncOutlined, roles: read, keepAlive: true },
      },
      {
        path: '/crm/other_contracts',
        component: OtherContracts,
        meta: { title: 'route.other_contracts', icon: ProfileOutlined, roles: read, keepAlive: true },
      },
      {
        path: '/crm/refund_list',
        component: RefundList,
        meta: { title: 'route.refund_list', icon: RollbackOutlined, roles: read, keepAlive: true },
      },
      {
        path: '/crm/uploadimglist',
        component: FileList,
        meta: { title: 'route.uploadimglist', icon: FileImageOutlined, roles: read, keepAlive: true },
      },
      hidden('addroomsales', ContractForm, write),
      hidden('editroomsales', ContractForm, write),
      hidden('roomshow', ContractShow, read),
      hidden('contract_audit', AuditPage, read, '/crm/contract_audit_list'),
      hidden('contract_audit_info', AuditInfo, read, '/crm/contract_audit_list'),
      hidden('uploadimg', FileUpload, write, '/crm/uploadimglist'),
      // the sales control table is a page of the root in the spec (/salestable); its menu entry is 出租出售房源's
      {
        path: '/salestable',
        component: SalesTable,
        hidden: true,
        meta: { title: 'route.salestable', icon: AppstoreOutlined, roles: read, activeMenu: '/crm/rentroom', search: true },
      },
    ],
  },
];
