import { useEffect, useState } from 'react';
import { Button, Card, InputNumber, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { meterVendor, type MeterVendorItem } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { ResourcePage, useCanWrite } from '../../components/resource';

/** The hours a valve may be closed for arrears (never at night by default). */
function CloseHoursCard() {
  const canWrite = useCanWrite(['carpark', 'devicelist']);
  const settings = useQuery({ queryKey: ['metersettings'], queryFn: () => call('metersettings', {}), retry: false });
  const [from, setFrom] = useState(8);
  const [to, setTo] = useState(20);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) {
      setFrom(settings.data.close_from);
      setTo(settings.data.close_to);
    }
  }, [settings.data]);
  const save = async () => {
    setBusy(true);
    try {
      noticeSuccess((await request('metersettingsset', { close_from: from, close_to: to })).return_msg);
      void settings.refetch();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title="欠费关阀时段" style={{ marginBottom: 12 }} data-testid="metersettings">
      <Space wrap>
        <span>每天</span>
        <InputNumber
          min={0}
          max={23}
          precision={0}
          value={from}
          onChange={(v) => setFrom(Number(v) || 0)}
          disabled={!canWrite}
          data-testid="metersettings-from"
        />
        <span>点至</span>
        <InputNumber
          min={1}
          max={24}
          precision={0}
          value={to}
          onChange={(v) => setTo(Number(v) || 1)}
          disabled={!canWrite}
          data-testid="metersettings-to"
        />
        <span>点之间允许欠费关阀</span>
        {canWrite && (
          <Button type="primary" loading={busy} onClick={() => void save()} data-testid="metersettings-save">
            保存
          </Button>
        )}
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        时段外欠费的表在时段开始后关阀；设为保护的房屋任何时候都不关阀。
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * /carpark/meterplatform (平台设置; docs/product.md#smart-meters): the vendor platforms the meters are
 * reached through (the secret written only, shown masked), and when valves may be closed.
 */
export default function MeterPlatform() {
  return (
    <>
      <CloseHoursCard />
      <ResourcePage<MeterVendorItem> resource={meterVendor} title="表计平台" />
    </>
  );
}
