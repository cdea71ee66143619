import { useState } from 'react';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import ApplyList from './ApplyList';
import WaitLines from './WaitLines';
import './invoice.css';

/** 待开票 (/invoice/invoicewaitlist): the paid lines with something left to invoice, and the applications for an invoice. */
export default function InvoiceWaitList() {
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState(params.get('tab') === 'apply' ? 'apply' : 'lines');
  return (
    <Tabs
      data-testid="invoicewaitlist-page"
      activeKey={tab}
      onChange={(k) => {
        setTab(k);
        setParams(k === 'apply' ? { tab: 'apply' } : {}, { replace: true });
      }}
      items={[
        { key: 'lines', label: '待开票费用', children: <WaitLines /> },
        { key: 'apply', label: '开票申请', children: <ApplyList /> },
      ]}
    />
  );
}
