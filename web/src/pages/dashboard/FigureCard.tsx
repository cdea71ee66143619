import type { ReactNode } from 'react';
import { Card, Statistic } from 'antd';

/** One figure on the dashboard: a title, a value and an optional footer/link. */
export default function FigureCard(props: {
  title: ReactNode;
  value: ReactNode;
  suffix?: ReactNode;
  icon?: ReactNode;
  color?: string;
  footer?: ReactNode;
  onClick?: () => void;
  testId?: string;
  loading?: boolean;
}) {
  return (
    <Card
      size="small"
      hoverable={!!props.onClick}
      onClick={props.onClick}
      loading={props.loading}
      data-testid={props.testId}
      className="figure-card"
      style={{ height: '100%' }}
      styles={{ body: { display: 'flex', alignItems: 'center', gap: 16, minHeight: 110 } }}
    >
      {props.icon && (
        <div className="figure-card-icon" style={{ fontSize: 40, color: props.color ?? '#40c9c6' }}>
          {props.icon}
        </div>
      )}
      <div style={{ flex: 1, minWidth: 0 }}>
        <Statistic title={props.title} value={props.value as string | number} suffix={props.suffix} />
        {props.footer && <div style={{ fontSize: 12, color: '#909399', marginTop: 4 }}>{props.footer}</div>}
      </div>
    </Card>
  );
}
