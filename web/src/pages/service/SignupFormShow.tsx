import { Card, Col, Empty, Progress, Row, Space, Statistic, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useSearchParams } from 'react-router';
import type { SignupItem } from '@wuye/contract';
import { runExport } from '../../api/exportJob';
import { useList } from '../../api/useList';
import TablePage from '../../components/TablePage';
import { answerText } from './SignupUserList';

/**
 * 表单数据 (/service/signup_form_show?id=; docs/product.md#activities): each sign-up's answers, a
 * column per question (kept under the question's id, so a renamed question keeps its answers),
 * and per question the people who answered, each choice's count, a number's sum and average;
 * export with every column.
 */
export default function SignupFormShow() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const list = useList('signupformshow', { id }, { enabled: id > 0 });
  const fields = list.answer?.fields ?? [];
  const questions = list.answer?.questions ?? [];

  const columns: TableColumnsType<SignupItem> = [
    { title: '报名号', dataIndex: 'no', width: 120 },
    { title: '姓名', dataIndex: 'realname', width: 90 },
    { title: '房屋', dataIndex: 'address', width: 180, ellipsis: true },
    { title: '状态', dataIndex: 'status_ch', width: 100 },
    ...fields.map((f): TableColumnsType<SignupItem>[number] => ({
      title: f.label,
      key: f.id,
      width: 160,
      render: (_, s) =>
        f.type === 'image' && s.answers[f.id] ? (
          <img src={String(s.answers[f.id])} alt={f.label} style={{ maxWidth: 80 }} />
        ) : (
          answerText(s.answers[f.id])
        ),
    })),
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Card size="small" title="每题统计" data-testid="form-questions">
        {questions.length === 0 ? (
          <Empty description="该活动没有报名表单" />
        ) : (
          <Row gutter={[16, 16]}>
            {questions.map((q) => (
              <Col key={q.id} xs={24} sm={12} lg={8}>
                <Card size="small" title={`${q.label}（${q.type_ch}）`} data-testid={`form-question-${q.id}`}>
                  <Typography.Text type="secondary">作答 {q.answered} 人</Typography.Text>
                  {q.choices.map((c) => (
                    <div key={c.option}>
                      <span>
                        {c.option}：{c.count}
                      </span>
                      <Progress percent={q.answered ? Math.round((c.count * 100) / q.answered) : 0} size="small" />
                    </div>
                  ))}
                  {q.type === 'number' && (
                    <Space size={24}>
                      <Statistic title="合计" value={q.sum} />
                      <Statistic title="平均" value={q.avg || '—'} />
                    </Space>
                  )}
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Card>
      <TablePage<SignupItem, Record<string, never>>
        testId="form-answers"
        list={list}
        columns={columns}
        rowKey="id"
        tableProps={{ scroll: { x: 560 + fields.length * 160 } }}
        onExport={() => runExport('signupformexport', { id })}
      />
    </Space>
  );
}
