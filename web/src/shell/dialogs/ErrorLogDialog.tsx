import { Button, Modal, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDialogs } from '../../stores/dialogs';
import { useErrorLog, type ErrorLogEntry } from '../../stores/errorLog';

/** Error-log dialog (docs/product.md#shell, #errors): uncaught errors collected in production builds. */
export default function ErrorLogDialog() {
  const { t } = useTranslation();
  const open = useDialogs((s) => s.errorLogOpen);
  const logs = useErrorLog((s) => s.logs);
  const close = () => useDialogs.getState().setErrorLogOpen(false);
  return (
    <Modal
      open={open}
      title={t('errorLog.title')}
      width="80%"
      onCancel={close}
      footer={
        <Button onClick={() => useErrorLog.getState().clear()} danger data-testid="error-log-clear">
          {t('errorLog.clear')}
        </Button>
      }
    >
      <Table<ErrorLogEntry>
        data-testid="error-log-table"
        size="small"
        rowKey={(r) => `${r.time}-${r.err.message}`}
        dataSource={logs}
        pagination={false}
        locale={{ emptyText: t('errorLog.empty') }}
        columns={[
          { title: t('errorLog.message'), key: 'msg', render: (_, r) => <b style={{ color: '#f5222d' }}>{r.err.message}</b> },
          { title: t('errorLog.info'), dataIndex: 'info', width: 140 },
          { title: t('errorLog.url'), dataIndex: 'url', ellipsis: true },
          { title: t('errorLog.time'), dataIndex: 'time', width: 200 },
        ]}
        expandable={{
          expandedRowRender: (r) => (
            <pre style={{ whiteSpace: 'pre-wrap', fontSize: 12 }}>
              {r.err.stack}
              {r.vm}
            </pre>
          ),
        }}
      />
    </Modal>
  );
}
