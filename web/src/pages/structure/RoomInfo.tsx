import { useEffect, useState } from 'react';
import { Button, Descriptions, Space } from 'antd';
import { useNavigate, useParams } from 'react-router';
import type { Room } from '@wuye/contract';
import { call } from '../../api/client';
import { PageCard, RoomStateTag, useCanWrite } from './shared';

/** roominfo/:id: one room's details. */
export default function RoomInfo() {
  const { id } = useParams();
  const [room, setRoom] = useState<Room | null>(null);
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  useEffect(() => {
    call('roominfo', { id: Number(id) })
      .then(setRoom)
      .catch(() => undefined);
  }, [id]);

  return (
    <PageCard
      title={room ? room.address : '房屋详情'}
      extra={
        <Space>
          {canWrite && room && (
            <Button type="primary" onClick={() => void navigate(`/basis/editroom/${room.id}`)}>
              编辑
            </Button>
          )}
          <Button onClick={() => void navigate('/basis/roomlist')}>返回</Button>
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
            <RoomStateTag state={room.state} text={room.state_ch} />
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
