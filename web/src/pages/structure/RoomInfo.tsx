import { useEffect, useState } from 'react';
import { Button, Descriptions, Space } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import type { Room } from '@wuye/contract';
import { call } from '../../api/client';
import { ROOM_STATE } from '@wuye/contract/structure';
import { EnumTag } from '../../components/resource';
import { NoRoomChosen, PageCard, useCanWrite } from './shared';

/** /roominfo?id=…: one room's details. */
export default function RoomInfoPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  if (!id) return <NoRoomChosen title="房屋详情" />;
  return <RoomInfo key={id} id={id} />;
}

function RoomInfo({ id }: { id: number }) {
  const [room, setRoom] = useState<Room | null>(null);
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  useEffect(() => {
    call('roominfo', { id })
      .then(setRoom)
      .catch(() => undefined);
  }, [id]);

  return (
    <PageCard
      title={room ? room.address : '房屋详情'}
      extra={
        <Space>
          {canWrite && room && (
            <Button type="primary" onClick={() => void navigate(`/editroom?id=${room.id}`)}>
              编辑
            </Button>
          )}
          <Button onClick={() => void navigate('/roomlist')}>返回</Button>
        </Space>
      }
    >
      {room && (
        <Descriptions bordered column={{ xs: 1, md: 2 }} data-testid="room-info">
          <Descriptions.Item label="房屋 ID">{room.id}</Descriptions.Item>
          <Descriptions.Item label="地址">{room.address}</Descriptions.Item>
          <Descriptions.Item label="楼栋">{room.building_title}</Descriptions.Item>
          <Descriptions.Item label="单元">{room.unit_title}</Descriptions.Item>
          <Descriptions.Item label="房号">{room.title}</Descriptions.Item>
          <Descriptions.Item label="楼层">{room.floor}</Descriptions.Item>
          <Descriptions.Item label="建筑面积">{room.built_area} ㎡</Descriptions.Item>
          <Descriptions.Item label="套内面积">{room.indoor_area} ㎡</Descriptions.Item>
          <Descriptions.Item label="房屋类型">{room.category_title || '—'}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <EnumTag enum={ROOM_STATE} value={room.state} />
          </Descriptions.Item>
          <Descriptions.Item label="备注" span={2}>
            {room.remark || '—'}
          </Descriptions.Item>
          <Descriptions.Item label="创建时间">{room.create_time}</Descriptions.Item>
        </Descriptions>
      )}
    </PageCard>
  );
}
