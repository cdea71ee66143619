import { useState } from 'react';
import { Button, Empty, Input, Modal, Radio, Space, Spin, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { LIMITS } from '@wuye/contract/codes';
import OwnerDrawer from './OwnerDrawer';
import type { HouseRef } from './shared';
import { OWNER_SEARCH_MORE_HINT, useOwnerSearch } from './useOwnerSearch';
import { formatMoney } from '../../components/Money';

export interface OwnerSearchDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * The global owner search (docs/product.md#owner-search): a mobile or name (at most 11 characters), results as
 * radio choices; OK opens the owner drawer for the chosen house and closes the dialog.
 * Keep it mounted (pass `open`), because the drawer it opens lives inside it.
 */
export default function OwnerSearchDialog({ open, onClose }: OwnerSearchDialogProps) {
  const [chosen, setChosen] = useState<number | null>(null);
  const [house, setHouse] = useState<HouseRef | null>(null);
  const { keywords, setKeywords, items, more, loading, search } = useOwnerSearch((found) => setChosen(found[0]?.id ?? null));

  const confirm = () => {
    const item = items?.find((i) => i.id === chosen);
    if (!item) return;
    setHouse({ rid: item.rid, bid: item.bid, tid: item.tid, hid: item.hid });
    onClose();
  };

  return (
    <>
      <Modal
        title="业主搜索"
        open={open}
        onCancel={onClose}
        width={560}
        destroyOnHidden={false}
        modalRender={(node) => <div data-testid="owner-search-dialog">{node}</div>}
        footer={[
          <Button key="cancel" onClick={onClose} data-testid="owner-search-cancel">
            取消
          </Button>,
          <Button key="ok" type="primary" disabled={chosen === null} onClick={confirm} data-testid="owner-search-ok">
            确定
          </Button>,
        ]}
      >
        <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
          <Input
            value={keywords}
            maxLength={LIMITS.ownerSearchMax}
            allowClear
            placeholder="手机号（或尾号）、姓名或房号"
            onChange={(e) => setKeywords(e.target.value)}
            onPressEnter={() => void search()}
            data-testid="owner-search-input"
          />
          <Button
            type="primary"
            icon={<SearchOutlined />}
            loading={loading}
            onClick={() => void search()}
            data-testid="owner-search-button"
          >
            搜索
          </Button>
        </Space.Compact>
        <Spin spinning={loading}>
          {items && items.length > 0 ? (
            <Radio.Group
              value={chosen}
              onChange={(e) => setChosen(e.target.value as number)}
              style={{ width: '100%' }}
              data-testid="owner-search-results"
            >
              <Space direction="vertical" style={{ width: '100%', maxHeight: 360, overflowY: 'auto' }}>
                {items.map((i) => (
                  <Radio key={i.id} value={i.id}>
                    <Space size="middle" wrap data-testid="owner-search-result" data-hid={i.hid}>
                      <Typography.Text strong>{i.address}</Typography.Text>
                      <span>{i.realname}</span>
                      <Typography.Text type="secondary">{i.mobile}</Typography.Text>
                      {i.relation !== 'owner' && <Typography.Text type="secondary">（{i.relation_ch}）</Typography.Text>}
                      {i.arrears.total !== '0.00' && (
                        <Typography.Text type="danger" data-testid="owner-search-arrears">
                          欠费 {formatMoney(i.arrears.total, { unit: '元' })}
                        </Typography.Text>
                      )}
                    </Space>
                  </Radio>
                ))}
              </Space>
              {more && (
                <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }} data-testid="owner-search-more">
                  {OWNER_SEARCH_MORE_HINT}
                </Typography.Text>
              )}
            </Radio.Group>
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={items ? '没有找到匹配的业主' : '请先输入业主手机号或姓名'}
              data-testid="owner-search-empty"
            />
          )}
        </Spin>
      </Modal>
      <OwnerDrawer house={house} onClose={() => setHouse(null)} />
    </>
  );
}
