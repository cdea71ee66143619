import { Tag, Typography } from 'antd';
import { seatsShortOfMinimum, type ActivityItem } from '@wuye/contract';

/** 最少成团: while open, how many more are needed; once closed short, a warning to decide on. */
export function ShortOfMinimum({ activity }: { activity: ActivityItem }) {
  const short = seatsShortOfMinimum(activity);
  if (short === 0) return null;
  return activity.phase === 'closed' ? (
    <Tag color="error" title={`少于最少成团人数 ${activity.min_num} 人，请决定取消或照常举办`}>
      未成团
    </Tag>
  ) : (
    <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
      差 {short} 人成团
    </Typography.Text>
  );
}
