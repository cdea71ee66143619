import { Card, Tag, Timeline } from 'antd';
import { AREA_NAMES, RELEASES } from './releases';

/** /updatelog/updatelog: what the product does, release by release (changelog.json). */
export default function UpdateLog() {
  return (
    <Card title="更新日志" data-testid="updatelog-page">
      <Timeline
        items={RELEASES.map((r) => ({
          key: r.version,
          content: (
            <div data-testid="release" data-version={r.version}>
              <div style={{ marginBottom: 6 }}>
                <Tag color="blue">{r.version}</Tag>
                <strong style={{ marginRight: 8 }}>{r.title}</strong>
                <span style={{ color: '#909399' }}>{r.date}</span>
              </div>
              {r.changes.map((c) => (
                <div key={c.area} style={{ marginBottom: 6 }}>
                  <Tag>{AREA_NAMES[c.area]}</Tag>
                  <ul style={{ margin: '4px 0 0', paddingLeft: 18 }}>
                    {c.items.map((i) => (
                      <li key={i}>{i}</li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          ),
        }))}
      />
    </Card>
  );
}
