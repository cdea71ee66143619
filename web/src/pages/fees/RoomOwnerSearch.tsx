import { Button, Empty, Input, List, Space, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import type { HouseSearchItem } from '@wuye/contract';
import { LIMITS } from '@wuye/contract/codes';
import { OWNER_SEARCH_MORE_HINT, useOwnerSearch } from '../owners/useOwnerSearch';
import { formatMoney } from '../../components/Money';

/**
 * The owner search of the counter's pages (the cashier desk, temporary charges): a name, a mobile
 * number (its head or its last four digits) or a room number, as the owner at the counter says it.
 * One room found opens at once; several are listed with what each owes, and a click opens that one.
 */
export default function RoomOwnerSearch({ onPick, testId }: { onPick: (h: HouseSearchItem) => void; testId: string }) {
  const { keywords, setKeywords, items, more, loading, search } = useOwnerSearch((found) => {
    if (found.length === 1) onPick(found[0]!);
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="small">
      <Space.Compact style={{ maxWidth: 420, width: '100%' }}>
        <Input
          value={keywords}
          maxLength={LIMITS.ownerSearchMax}
          allowClear
          placeholder="姓名 / 手机号 / 手机尾号 / 房号"
          onChange={(e) => setKeywords(e.target.value)}
          onPressEnter={() => void search()}
          data-testid={`${testId}-input`}
        />
        <Button type="primary" icon={<SearchOutlined />} loading={loading} onClick={() => void search()} data-testid={`${testId}`}>
          搜索业主
        </Button>
      </Space.Compact>
      {items && items.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有找到匹配的业主或房屋" data-testid={`${testId}-empty`} />
      )}
      {items && items.length > 1 && (
        <List
          size="small"
          bordered
          style={{ maxHeight: 260, overflowY: 'auto', maxWidth: 640 }}
          dataSource={items}
          data-testid={`${testId}-results`}
          renderItem={(i) => (
            <List.Item
              key={i.id}
              style={{ cursor: 'pointer' }}
              onClick={() => onPick(i)}
              data-testid={`${testId}-result`}
              data-hid={i.hid}
              actions={[
                i.arrears.total !== '0.00' ? (
                  <Typography.Text key="owes" type="danger">
                    欠费 {formatMoney(i.arrears.total, { unit: '元' })}
                  </Typography.Text>
                ) : (
                  <Typography.Text key="owes" type="secondary">
                    无欠费
                  </Typography.Text>
                ),
              ]}
            >
              <Space size="small" wrap>
                <Typography.Text strong>{i.address}</Typography.Text>
                <span>{i.realname}</span>
                <Typography.Text type="secondary">{i.mobile}</Typography.Text>
                {i.relation !== 'owner' && <Typography.Text type="secondary">（{i.relation_ch}）</Typography.Text>}
              </Space>
            </List.Item>
          )}
        />
      )}
      {more && (
        <Typography.Text type="secondary" data-testid={`${testId}-more`}>
          {OWNER_SEARCH_MORE_HINT}
        </Typography.Text>
      )}
    </Space>
  );
}
