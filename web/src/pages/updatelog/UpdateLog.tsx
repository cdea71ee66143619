import { Card, Tag, Timeline } from 'antd';
import { RELEASES } from './releases';

/** /updatelog/updatelog: the release notes of this product. */
export default function UpdateLog() {
  return (
    <Card title="更新日志" data-testid="updatelog-page">
      <Timeline
        items={RELEASES.map((r) => ({
          key: r.version,
          content: (
            <div>
              <div style={{ marginBottom: 6 }}>
                <Tag color="blue">{r.version}</Tag>
                <span style={{ color: '#909399' }}>{r.date}</span>
              </div>
              <ul style={{ margin: 0, paddingLeft: 18 }}>
                {r.items.map((i) => (
                  <li key={i}>{i}</li>
                ))}
              </ul>
            </div>
          ),
        }))}
      />
    </Card>
  );
}
