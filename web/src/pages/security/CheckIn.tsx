import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Checkbox, Empty, Form, Input, Progress, Radio, Segmented, Space, Tag, Typography } from 'antd';
import { CameraOutlined, CheckCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { TASK_POINT_STATUS, TASK_STATUS, type CheckinMethod, type PatrolCheckinAnswer, type PatrolTaskPointRow } from '@wuye/contract';
import { call, request } from '../../api/client';
import { noticeSuccess } from '../../api/feedback';
import { PhotosInput } from '../../components/PhotosInput';
import { EnumTag } from '../../components/resource';

interface Detected {
  rawValue: string;
}
interface Detector {
  detect(source: HTMLVideoElement): Promise<Detected[]>;
}
type DetectorCtor = new (opts: { formats: string[] }) => Detector;

/** Scans a QR with the camera where the browser can (BarcodeDetector); typing the number always works. */
function CameraScan({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer = 0;
    let alive = true;
    const Ctor = (window as unknown as { BarcodeDetector?: DetectorCtor }).BarcodeDetector;
    if (!Ctor || !navigator.mediaDevices?.getUserMedia) {
      setError('此浏览器不能扫码，请输入巡更点编号');
      return;
    }
    const detector = new Ctor({ formats: ['qr_code'] });
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then((s) => {
        stream = s;
        if (!alive || !video.current) return;
        video.current.srcObject = s;
        void video.current.play();
        const tick = () => {
          if (!alive || !video.current) return;
          detector
            .detect(video.current)
            .then((found) => {
              if (found[0]?.rawValue) onCode(found[0].rawValue);
              else timer = window.setTimeout(tick, 300);
            })
            .catch(() => (timer = window.setTimeout(tick, 500)));
        };
        tick();
      })
      .catch(() => setError('无法打开摄像头，请输入巡更点编号'));
    return () => {
      alive = false;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [onCode]);
  return (
    <Card size="small" title="扫描巡更点二维码" extra={<Button onClick={onClose}>关闭</Button>}>
      {error ? <Alert type="warning" message={error} /> : <video ref={video} style={{ width: '100%' }} muted playsInline />}
    </Card>
  );
}

/**
 * /security/patrolcheckin (巡更签到; docs/product.md#patrols), made for a phone: the signed-in guard's
 * tasks of today with their points; a point's number typed (or its QR scanned), its checklist
 * answered, a photo added, the position sent when the phone gives it. Every upload is kept by the
 * server, an unknown code too.
 */
export default function CheckIn() {
  const tasks = useQuery({ queryKey: ['patrolmytasks'], queryFn: () => call('patrolmytasks', {}), refetchOnWindowFocus: true });
  const [code, setCode] = useState('');
  const [way, setWay] = useState<CheckinMethod>('qr');
  const [scan, setScan] = useState(false);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [photos, setPhotos] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [result, setResult] = useState<'N' | 'A'>('N');
  const [last, setLast] = useState<{ answer: PatrolCheckinAnswer; msg: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [pos, setPos] = useState<{ lat: number; lng: number } | null>(null);

  useEffect(() => {
    navigator.geolocation?.getCurrentPosition(
      (p) => setPos({ lat: Number(p.coords.latitude.toFixed(7)), lng: Number(p.coords.longitude.toFixed(7)) }),
      () => undefined,
      { timeout: 5000 },
    );
  }, []);

  const open = useMemo(() => (tasks.data?.items ?? []).filter((t) => t.status === 'W' || t.status === 'D'), [tasks.data]);
  // the pending point the code names (its number or its QR), for its checklist
  const point: PatrolTaskPointRow | undefined = useMemo(() => {
    const c = code.trim().toUpperCase();
    if (!c) return undefined;
    for (const t of open)
      for (const p of t.points) if (p.status === 'W' && (p.point_number.toUpperCase() === c || p.point_qr === c)) return p;
    return undefined;
  }, [code, open]);
  const anyAbnormal = Object.values(answers).includes('异常');

  const reset = () => {
    setCode('');
    setAnswers({});
    setPhotos([]);
    setNote('');
    setResult('N');
  };
  const submit = async () => {
    setSending(true);
    try {
      const answer = await request('patrolcheckin', {
        code: code.trim(),
        check_method: way,
        device_time: dayjs().format('YYYY-MM-DD HH:mm:ss'),
        lat: pos?.lat ?? null,
        lng: pos?.lng ?? null,
        result: anyAbnormal ? 'A' : result,
        answers: (point?.checklist ?? []).map((c) => ({ title: c.title, value: answers[c.title] ?? '' })).filter((a) => a.value !== ''),
        photos,
        note,
      });
      setLast({ answer: answer.data, msg: answer.return_msg ?? '' });
      if (answer.data.matched) noticeSuccess(answer.return_msg ?? '签到成功');
      reset();
      void tasks.refetch();
    } catch {
      // toasted by the client
    } finally {
      setSending(false);
    }
  };

  return (
    <div style={{ maxWidth: 480, margin: '0 auto' }} data-testid="patrol-checkin">
      <Card size="small" title="巡更签到" style={{ marginBottom: 12 }}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Segmented<CheckinMethod>
            block
            value={way}
            onChange={setWay}
            options={[
              { value: 'qr', label: '二维码/编号' },
              { value: 'nfc', label: 'NFC' },
              { value: 'wand', label: '钮号' },
              { value: 'gps', label: 'GPS' },
            ]}
          />
          <Space.Compact style={{ width: '100%' }}>
            <Input
              size="large"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              placeholder={way === 'nfc' ? 'NFC 标签号' : way === 'wand' ? '钮号' : '巡更点编号或扫码'}
              maxLength={60}
              data-testid="checkin-code"
            />
            {way === 'qr' && <Button size="large" icon={<CameraOutlined />} onClick={() => setScan(true)} aria-label="扫码" />}
          </Space.Compact>
          {scan && (
            <CameraScan
              onClose={() => setScan(false)}
              onCode={(c) => {
                setCode(c);
                setScan(false);
              }}
            />
          )}
          {point && (
            <Card size="small" type="inner" title={`${point.point_number} ${point.point_name}`} data-testid="checkin-point">
              <Form layout="vertical">
                {point.checklist.map((c) => (
                  <Form.Item key={c.title} label={c.title} style={{ marginBottom: 8 }}>
                    {c.type === 'normal' && (
                      <Radio.Group
                        value={answers[c.title]}
                        onChange={(e) => setAnswers((a) => ({ ...a, [c.title]: e.target.value as string }))}
                        options={['正常', '异常']}
                        data-testid={`answer-${c.title}`}
                      />
                    )}
                    {c.type === 'single' && (
                      <Radio.Group
                        value={answers[c.title]}
                        onChange={(e) => setAnswers((a) => ({ ...a, [c.title]: e.target.value as string }))}
                        options={c.options}
                      />
                    )}
                    {c.type === 'multiple' && (
                      <Checkbox.Group
                        value={answers[c.title] ? answers[c.title]!.split('、') : []}
                        onChange={(v) => setAnswers((a) => ({ ...a, [c.title]: (v as string[]).join('、') }))}
                        options={c.options}
                      />
                    )}
                    {c.type === 'text' && (
                      <Input
                        value={answers[c.title]}
                        maxLength={500}
                        onChange={(e) => setAnswers((a) => ({ ...a, [c.title]: e.target.value }))}
                      />
                    )}
                  </Form.Item>
                ))}
                <Form.Item label="巡查结果" style={{ marginBottom: 8 }}>
                  <Radio.Group
                    value={anyAbnormal ? 'A' : result}
                    disabled={anyAbnormal}
                    onChange={(e) => setResult(e.target.value as 'N' | 'A')}
                    options={[
                      { value: 'N', label: '正常' },
                      { value: 'A', label: '异常' },
                    ]}
                    data-testid="checkin-result"
                  />
                </Form.Item>
                <Form.Item label={point.photo_required === 'Y' ? '现场照片（必须）' : '现场照片'} style={{ marginBottom: 8 }}>
                  <PhotosInput value={photos} onChange={setPhotos} max={9} testId="checkin-photos" />
                </Form.Item>
                <Form.Item label="说明" style={{ marginBottom: 0 }}>
                  <Input.TextArea
                    value={note}
                    maxLength={200}
                    onChange={(e) => setNote(e.target.value)}
                    rows={2}
                    data-testid="checkin-note"
                  />
                </Form.Item>
              </Form>
            </Card>
          )}
          <Button
            type="primary"
            size="large"
            block
            loading={sending}
            disabled={!code.trim()}
            onClick={() => void submit()}
            data-testid="checkin-submit"
          >
            签到
          </Button>
          {pos ? (
            <Typography.Text type="secondary">
              已定位 {pos.lat}, {pos.lng}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">未取得定位（GPS 签到需要定位）</Typography.Text>
          )}
          {last && (
            <Alert
              type={last.answer.matched ? (last.answer.outside || last.answer.out_of_order ? 'warning' : 'success') : 'error'}
              showIcon
              message={last.msg}
              data-testid="checkin-answer"
            />
          )}
        </Space>
      </Card>
      {tasks.data && tasks.data.items.length === 0 && <Empty description="今天没有巡更任务" />}
      {(tasks.data?.items ?? []).map((t) => (
        <Card
          key={t.id}
          size="small"
          style={{ marginBottom: 12 }}
          title={`${t.plan_name} ${t.window_text.slice(11)}`}
          extra={<EnumTag enum={TASK_STATUS} value={t.status} />}
          data-testid={`mytask-${t.id}`}
        >
          <Progress percent={Math.round((t.points_done * 100) / Math.max(1, t.points_total))} format={() => t.completion} size="small" />
          {t.points.map((p) => (
            <div
              key={p.id}
              style={{ display: 'flex', justifyContent: 'space-between', padding: '4px 0', borderBottom: '1px solid #f0f0f0' }}
            >
              <span>
                {p.status === 'Y' && <CheckCircleOutlined style={{ color: '#52c41a', marginRight: 4 }} />}
                {p.sort}. {p.point_name} <Typography.Text type="secondary">{p.point_number}</Typography.Text>
              </span>
              <span>
                <Typography.Text type="secondary" style={{ marginRight: 4 }}>
                  {p.due_text}
                </Typography.Text>
                <EnumTag enum={TASK_POINT_STATUS} value={p.status} />
                {p.result === 'A' && <Tag color="error">异常</Tag>}
              </span>
            </div>
          ))}
          {t.missed_names && <Alert type="error" style={{ marginTop: 8 }} message={`漏巡：${t.missed_names}`} />}
        </Card>
      ))}
    </div>
  );
}
